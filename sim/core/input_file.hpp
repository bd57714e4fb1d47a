// Reading a file the user names as an input (scenario, trace, calibration profile): only a
// regular file (symlinks followed) is read, so a device such as /dev/zero, a FIFO, a socket or
// a folder is refused at once instead of read forever or waited on; a file above `max_bytes`
// is refused before it is read into memory. Input text must be UTF-8: check_utf8 names the
// line and column of the first byte that is not. Every refusal is an InputError naming the
// path and what the file was for (e.g. "the trace (/failures/trace/path)").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace goodput {

// Reading takes several times a file's size (a trace's events, a JSON document: about 8x for
// goodput's trace formats), so this bounds the memory a read can take before the work budget
// sees the trace.
inline constexpr std::uintmax_t kMaxInputFileBytes = std::uintmax_t{256} << 20;  // 256 MiB

// The whole file. `what` says what the file is for, as errors show it.
std::string read_input_file(const std::string& path, const std::string& what,
                            std::uintmax_t max_bytes = kMaxInputFileBytes);

// The byte offset of the first byte of `text` that does not begin a well-formed UTF-8
// sequence (overlong forms, surrogates and code points above U+10FFFF are not well-formed);
// std::nullopt when all of it is UTF-8.
std::optional<std::size_t> invalid_utf8_at(std::string_view text);
// Throws InputError(file, "line N", ...) at the first byte that is not UTF-8, with its column
// and value ("expected UTF-8 text, found the byte 0xFF at column 7").
void check_utf8(std::string_view text, const std::string& file);

}  // namespace goodput
