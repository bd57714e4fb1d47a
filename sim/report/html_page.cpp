#include "sim/report/html_page.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "sim/core/data_dir.hpp"

namespace goodput {

namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The three libraries, in load order, or empty if any is missing. Read once.
const std::string& vendored_js() {
  static const std::string js = [] {
    const char* env = std::getenv("GOODPUT_JS_DIR");
    const auto installed = installed_data_dir();  // an installed goodput: <data>/js
    const std::string dir = env && *env          ? std::string(env)
                            : !installed.empty() ? (installed / "js").string()
                                                 : std::string(GOODPUT_JS_DIR);
    std::string out;
    for (const char* name : {"vega.min.js", "vega-lite.min.js", "vega-embed.min.js"}) {
      std::string code = read_all(dir + "/" + name);
      if (code.empty()) return std::string();
      // Keep the inlined code from closing its own <script> element ("<\/script" means the same).
      for (std::size_t at = code.find("</script"); at != std::string::npos;
           at = code.find("</script", at + 3))
        code.replace(at, 2, "<\\/");
      out += "<script>" + code + "</script>\n";
    }
    return out;
  }();
  return js;
}

// JSON inside <script>: escape '<' so no data string can end the element.
std::string script_json(const nlohmann::ordered_json& j) {
  std::string out;
  for (char c : j.dump()) {
    if (c == '<')
      out += "\\u003c";
    else
      out += c;
  }
  return out;
}

constexpr const char* kStyle = R"(<style>
body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:14px}th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}
th:first-child,td:first-child{text-align:left}.note{color:#555;font-size:14px}
.missing{background:#fff3cd;border:1px solid #e0c060;padding:1em;margin:1em 0}.chart{margin:0.5em 0 2em}
</style>
)";

}  // namespace

bool charts_available() {
  return !vendored_js().empty();
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
    << kStyle << vendored_js() << "</head><body>\n<h1>" << html_escape(title) << "</h1>\n"
    << intro_html << "\n";
  if (!charts_available())
    s << "<div class=\"missing\" id=\"charts-missing\"><b>Charts unavailable:</b> the plotting "
         "libraries (Vega, "
         "Vega-Lite, vega-embed) were not vendored when this report was written. Run "
         "<code>bash scripts/vendor-js.sh</code> and write the report again. The tables below hold "
         "the same "
         "numbers.</div>\n";
  nlohmann::ordered_json specs = nlohmann::ordered_json::object();
  for (const auto& c : charts) {
    s << "<h2>" << html_escape(c.title) << "</h2>\n";
    if (!c.note.empty()) s << "<p class=\"note\">" << html_escape(c.note) << "</p>\n";
    s << "<div class=\"chart\" id=\"" << c.id << "\"></div>\n";
    specs[c.id] = c.spec;
  }
  s << tables_html << "\n<script id=\"chart-specs\" type=\"application/json\">"
    << script_json(specs)
    << "</script>\n<script>\n"
       "const specs = JSON.parse(document.getElementById('chart-specs').textContent);\n"
       "if (typeof vegaEmbed !== 'undefined') {\n"
       "  for (const [id, spec] of Object.entries(specs))\n"
       "    vegaEmbed('#' + id, spec, {renderer: 'svg', actions: false}).catch(e => {\n"
       "      document.getElementById(id).textContent = 'chart failed: ' + e; console.error(e); "
       "});\n"
       "}\n</script>\n</body></html>\n";
  return s.str();
}

}  // namespace goodput
