#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "sim/core/content_hash.hpp"

namespace fs = std::filesystem;

TEST_CASE("content_hash.sha256_known_vectors") {
  // FIPS 180-2 examples.
  CHECK(goodput::sha256_hex("") ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(goodput::sha256_hex("abc") ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("content_hash.file_digest_matches_bytes_and_refuses_non_files") {
  const fs::path dir = fs::temp_directory_path() / "goodput-hash-test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string big(200000, 'x');  // spans several read blocks
  big[123456] = 'y';
  std::ofstream(dir / "f", std::ios::binary) << big;
  const goodput::FileDigest d = goodput::digest_file(dir / "f");
  CHECK(d.size == big.size());
  CHECK(d.sha256 == goodput::sha256_hex(big));
  CHECK_THROWS(goodput::digest_file(dir));              // a folder
  CHECK_THROWS(goodput::digest_file(dir / "missing"));  // absent
  fs::remove_all(dir);
}
