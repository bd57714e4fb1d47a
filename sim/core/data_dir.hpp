// Where an installed goodput finds its shipped files (scenarios, calibration profiles, the
// plotting libraries for report.html): the folder GOODPUT_DATA_REL (from the install layout,
// `../share/goodput` by default) relative to the running executable's own folder. Empty when
// that folder does not exist, as for a binary in the build tree: callers then use the source
// tree. `cmake --install` puts the files there (cmake/install.cmake).
#pragma once

#include <filesystem>

namespace goodput {

std::filesystem::path installed_data_dir();

}  // namespace goodput
