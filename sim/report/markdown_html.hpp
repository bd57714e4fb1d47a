// The subset of Markdown that goodput's own report.md uses, as HTML, so report.html carries
// everything report.md says from one source (report_markdown). Handles "#".."####" headings
// (each shifted down by `shift` levels), paragraphs, "- " bullet lists, pipe tables (the
// "|---|" line ends the header), **bold** and `code`. Every piece of text is HTML-escaped first,
// so nothing in a report (a description, a path) can inject markup. Not a general Markdown
// renderer: anything else is a paragraph of escaped text.
#pragma once

#include <string>

namespace goodput {

std::string markdown_html(const std::string& markdown, int shift = 0);

}  // namespace goodput
