// Error types of the library. Library code throws; only the CLI maps them to exit codes:
//   InputError  -> exit 2 (bad scenario, trace, flag: names the file and the JSON pointer or line)
//   NoDeviceError -> exit 3 (calibration without a usable GPU)
//   FileError   -> exit 1 (the system refused a read or write: names the path and why)
//   anything else -> exit 1
// Simulated GPU failures are events, never exceptions.
#pragma once

#include <stdexcept>
#include <string>

namespace goodput {

class InputError : public std::runtime_error {
 public:
  // `where` is a file name (may be empty), `locator` a JSON pointer ("/job/tp") or "line 12".
  InputError(std::string where, std::string locator, const std::string& message)
      : std::runtime_error(format(where, locator, message)),
        file_(std::move(where)),
        locator_(std::move(locator)),
        message_(message) {}
  const std::string& file() const { return file_; }
  const std::string& locator() const { return locator_; }
  const std::string& message() const { return message_; }  // without file and locator

 private:
  static std::string format(const std::string& file, const std::string& locator,
                            const std::string& message) {
    std::string out;
    if (!file.empty()) out += file;
    if (!locator.empty()) out += (out.empty() ? "" : ": ") + locator;
    if (!out.empty()) out += ": ";
    return out + message;
  }
  std::string file_;
  std::string locator_;
  std::string message_;
};

// A file or folder the system would not let goodput read or write (a full disk, an I/O error,
// permissions) -> exit 1, printed as an error naming the path, not as an internal error.
class FileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class NoDeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace goodput
