#include "sim/report/html_page.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/content_hash.hpp"
#include "sim/core/data_dir.hpp"
#include "sim/core/json_out.hpp"

namespace goodput {

namespace {

// The three libraries in load order, each with the SHA-256 of the pinned build that
// scripts/vendor-js.sh fetches (scripts/vendor-js.sha256, compiled in by sim/CMakeLists.txt).
struct Script {
  const char* name;
  const char* sha256;
};
constexpr Script kScripts[] = {{"vega.min.js", GOODPUT_JS_SHA256_VEGA},
                               {"vega-lite.min.js", GOODPUT_JS_SHA256_VEGA_LITE},
                               {"vega-embed.min.js", GOODPUT_JS_SHA256_VEGA_EMBED}};

// A regular file's bytes; empty when it is missing or not a regular file (never a device).
std::string read_all(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return {};
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Vendored {
  std::string html;     // the <script> elements, or empty
  std::string problem;  // why they are not there (for stderr: names the file)
  std::string note;     // the same for the page (names no path)
};

// Read and checked once: a script is inlined only if its SHA-256 is the one recorded at build
// time, and then all three are; otherwise none is, and `problem` says why.
const Vendored& vendored_js() {
  static const Vendored js = [] {
    const char* env = std::getenv("GOODPUT_JS_DIR");
    const auto installed = installed_data_dir();  // an installed goodput: <data>/js
    const std::filesystem::path dir = env && *env          ? std::string(env)
                                      : !installed.empty() ? (installed / "js").string()
                                                           : std::string(GOODPUT_JS_DIR);
    Vendored v;
    for (const Script& script : kScripts) {
      std::string code = read_all(dir / script.name);
      if (code.empty()) {
        v.problem = "the plotting libraries were not found in " + dir.string() +
                    ": run scripts/vendor-js.sh (or set GOODPUT_JS_DIR)";
        v.note =
            "the plotting libraries (Vega, Vega-Lite, vega-embed) were not vendored when this "
            "report was written. Run <code>bash scripts/vendor-js.sh</code> and write the report "
            "again.";
        v.html.clear();
        return v;
      }
      if (sha256_hex(code) != script.sha256) {
        v.problem = (dir / script.name).string() +
                    " does not match the SHA-256 recorded when goodput was built (" +
                    script.sha256 + "), so no plotting library was inlined";
        v.note = std::string("<code>") + script.name +
                 "</code> does not match the SHA-256 recorded when goodput was built, so no "
                 "unverified script was inlined. Run <code>bash scripts/vendor-js.sh</code> and "
                 "write the report again.";
        v.html.clear();
        return v;
      }
      // Keep the inlined code from closing its own <script> element ("<\/script" means the same).
      for (std::size_t at = code.find("</script"); at != std::string::npos;
           at = code.find("</script", at + 3))
        code.replace(at, 2, "<\\/");
      v.html += "<script>" + code + "</script>\n";
    }
    return v;
  }();
  return js;
}

// JSON inside <script>: escape '<' so no data string can end the element.
std::string script_json(const std::string& json) {
  std::string out;
  out.reserve(json.size());
  std::size_t from = 0;
  for (std::size_t lt; (lt = json.find('<', from)) != std::string::npos; from = lt + 1) {
    out.append(json, from, lt - from);
    out += "\\u003c";
  }
  out.append(json, from);
  return out;
}

constexpr const char* kStyle = R"(<style>
body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:14px}th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}
th:first-child,td:first-child{text-align:left}.note{color:#555;font-size:14px}
.missing{background:#fff3cd;border:1px solid #e0c060;padding:1em;margin:1em 0}.chart{margin:0.5em 0 0.3em}
.export{margin:0 0 2em}.export button{font-size:12px;margin-right:0.5em}
</style>
)";

// Draws each chart (SVG) and enables its Save buttons once drawn. chartImage(id, format) gives a
// chart's SVG text or PNG data URL (Vega's own export, offline); the buttons download it.
constexpr const char* kEmbedScript =
    R"(const specs = JSON.parse(document.getElementById('chart-specs').textContent);
const views = {};
function chartImage(id, format) {
  const view = views[id];
  if (!view) return Promise.reject(new Error('chart ' + id + ' is not drawn'));
  return format === 'svg' ? view.toSVG() : view.toImageURL('png', 2);
}
function saveChart(id, format) {
  chartImage(id, format).then(image => {
    const url = format === 'svg' ? URL.createObjectURL(new Blob([image], {type: 'image/svg+xml'})) : image;
    const a = document.createElement('a');
    a.href = url; a.download = id + '.' + format;
    document.body.appendChild(a); a.click(); a.remove();
    if (format === 'svg') setTimeout(() => URL.revokeObjectURL(url), 1000);
  }).catch(e => console.error(e));
}
for (const button of document.querySelectorAll('.export button'))
  button.addEventListener('click', () => saveChart(button.dataset.chart, button.dataset.format));
if (typeof vegaEmbed !== 'undefined') {
  for (const [id, spec] of Object.entries(specs))
    vegaEmbed('#' + id, spec, {renderer: 'svg', actions: false}).then(result => {
      views[id] = result.view;
      for (const b of document.querySelectorAll('.export button[data-chart="' + id + '"]')) b.disabled = false;
    }).catch(e => {
      document.getElementById(id).textContent = 'chart failed: ' + e; console.error(e); });
}
)";

}  // namespace

std::string export_controls(const std::string& id) {
  std::string s = "<div class=\"export\">";
  for (const char* format : {"svg", "png"})
    s += std::string("<button type=\"button\" disabled data-chart=\"") + id + "\" data-format=\"" +
         format + "\">Save " + (format[0] == 's' ? "SVG" : "PNG") + "</button>";
  return s + "</div>\n";
}

bool charts_available() {
  return !vendored_js().html.empty();
}

std::string charts_missing_reason() {
  return vendored_js().problem;
}

std::string html_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string html_page(const std::string& title, const std::string& intro_html,
                      const std::vector<HtmlChart>& charts, const std::string& tables_html) {
  std::ostringstream s;
  s << "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>"
    << html_escape(title) << "</title>\n"
    << kStyle << vendored_js().html << "</head><body>\n<h1>" << html_escape(title) << "</h1>\n"
    << intro_html << "\n";
  if (!charts_available())
    s << "<div class=\"missing\" id=\"charts-missing\"><b>Charts unavailable:</b> "
      << vendored_js().note << " The tables below hold the same numbers.</div>\n";
  // The specs as one JSON object, id -> spec (a repeated id keeps its first place and takes its
  // last spec, as the object's operator[] did), written spec by spec without copying them.
  std::vector<const HtmlChart*> members;
  for (const auto& c : charts) {
    s << "<h2>" << html_escape(c.title) << "</h2>\n";
    if (!c.note.empty()) s << "<p class=\"note\">" << html_escape(c.note) << "</p>\n";
    s << "<div class=\"chart\" id=\"" << c.id << "\"></div>\n"
      << (charts_available() ? export_controls(c.id) : std::string());
    auto same = [&](const HtmlChart* m) { return m->id == c.id; };
    if (auto it = std::find_if(members.begin(), members.end(), same); it != members.end())
      *it = &c;
    else
      members.push_back(&c);
  }
  std::string specs;
  JsonOut w(specs);
  w.begin_object();
  for (const HtmlChart* c : members)
    w.key(c->id).raw(c->spec_json.empty() ? c->spec.dump() : c->spec_json);
  w.end_object();
  s << tables_html << "\n<script id=\"chart-specs\" type=\"application/json\">"
    << script_json(specs) << "</script>\n<script>\n"
    << kEmbedScript << "</script>\n</body></html>\n";
  return s.str();
}

}  // namespace goodput
