// cache_hint(p): start loading the cache line holding p, a hint with no effect on results, that
// the compiler keeps. __builtin_prefetch alone is an operation without effects to GCC: at -O2 it
// deletes such hints, and whole loops of them (a loop with no effects may be assumed to finish,
// so it is dead). The empty volatile asm that takes the address is an effect it must keep; it
// emits no instruction.
#pragma once

namespace goodput {

inline void cache_hint(const void* p) {
  __builtin_prefetch(p);
  asm volatile("" : : "r"(p));
}

}  // namespace goodput
