// JSON Schema (draft 2020-12) of a declared parameter section (params.hpp), for editors and
// other tools: every key with its type, range, choices, default, unit and doc, unknown keys
// refused, required keys required. It states what ParamReader checks key by key; the rules
// only a loader knows (one key against another, files that must exist) stay the loader's, so a
// file the schema accepts may still be refused, never the other way round.
//
// A section with a `preset` key that fills the others (/job/model) requires its required keys
// only when no preset is given.
#pragma once

#include "sim/core/params.hpp"

namespace goodput {

inline constexpr const char* kJsonSchemaDialect = "https://json-schema.org/draft/2020-12/schema";

// The schema of an object `section` accepts (nested sections included, depth first).
Json section_json_schema(const ParamSection& section);
// The schema of one key's value.
Json param_json_schema(const ParamDecl& d);

}  // namespace goodput
