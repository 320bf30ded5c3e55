// Host test of the DeviceRTL's global memory pool (offload/DeviceRTL/include/
// GlobalPool.h, patch OpenMP-DeviceRTL-Serve-__kmpc_alloc_shared-from-a-
// global-pool-when-the-s.patch). The pool is plain C++ with scoped atomics, so its
// allocation, exhaustion, reuse and thread safety are checked here with host
// threads; tests/devicertl/global-pool.sh also builds it with ThreadSanitizer,
// which checks that a block's new owner happens after its last one.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "GlobalPool.h"

using PoolTy = ompx::pool::GlobalPoolTy<64, 256>; // 8 bitmap words.
static PoolTy Pool;

static int Failures = 0;
#define CHECK(C)                                                               \
  do {                                                                         \
    if (!(C)) {                                                                \
      std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__,   \
                   #C);                                                        \
      ++Failures;                                                              \
    }                                                                          \
  } while (0)

static bool poolEmpty() {
  for (uint32_t W = 0; W < PoolTy::NumWords; ++W)
    if (__atomic_load_n(&Pool.Used[W], __ATOMIC_SEQ_CST))
      return false;
  return true;
}

static void sequential() {
  CHECK(PoolTy::MaxRunWords == 8 && PoolTy::MaxSize == 8 * 32 * 64 - 16);
  CHECK(Pool.alloc(PoolTy::MaxSize + 1, 0) == nullptr);
  CHECK(poolEmpty());

  // Sizes up to 48 bytes take one block, with the 16-byte header.
  void *A = Pool.alloc(0, 0), *B = Pool.alloc(48, 0), *C = Pool.alloc(49, 0);
  CHECK(A && B && C);
  CHECK(Pool.owns(A) && Pool.owns(B) && Pool.owns(C));
  CHECK(!Pool.owns(&Failures) && !Pool.owns(nullptr));
  for (void *P : {A, B, C})
    CHECK(reinterpret_cast<uintptr_t>(P) % 16 == 0);
  CHECK(static_cast<char *>(B) - static_cast<char *>(A) == 64);
  // 49 bytes need two blocks, aligned to two: blocks 2 and 3.
  CHECK(static_cast<char *>(C) - static_cast<char *>(A) == 128);
  CHECK(Pool.Used[0] == 0xfu);
  Pool.free(B);
  CHECK(Pool.Used[0] == 0xdu);
  CHECK(Pool.alloc(1, 0) == B); // The freed block is reused first.
  Pool.free(A);
  Pool.free(B);
  Pool.free(C);
  CHECK(poolEmpty());

  // Exhaustion: 256 one-block allocations fit, the next one does not, and a
  // freed block serves the next allocation again.
  std::vector<void *> All;
  while (void *P = Pool.alloc(32, 3))
    All.push_back(P);
  CHECK(All.size() == 256);
  Pool.free(All[100]);
  void *Again = Pool.alloc(16, 0);
  CHECK(Again == All[100]);
  CHECK(Pool.alloc(16, 0) == nullptr);
  for (void *P : All)
    Pool.free(P);
  CHECK(poolEmpty());

  // Allocations of 2032 bytes take a whole word each: 8 of them.
  const uint64_t WordSize = 32 * 64 - 16;
  for (int I = 0; I < 8; ++I) {
    All[I] = Pool.alloc(WordSize, I * 5);
    CHECK(All[I] != nullptr);
    if (All[I])
      std::memset(All[I], I, WordSize);
  }
  CHECK(Pool.alloc(1, 0) == nullptr);
  for (int I = 0; I < 8; ++I)
    if (All[I])
      Pool.free(All[I]);
  CHECK(poolEmpty());

  // One byte more takes two words, aligned to two: from hint 3, words 2 and 3.
  void *Two = Pool.alloc(WordSize + 1, 3);
  CHECK(Two == &Pool.Data[2 * 32 * 64 + 16]);
  CHECK(Pool.Used[2] == ~0u && Pool.Used[3] == ~0u && Pool.Used[1] == 0);
  CHECK(Pool.alloc(PoolTy::MaxSize, 0) == nullptr); // Needs all 8 words.
  Pool.free(Two);
  CHECK(poolEmpty());
  void *Whole = Pool.alloc(PoolTy::MaxSize, 0);
  CHECK(Whole == &Pool.Data[16]);
  CHECK(Pool.alloc(1, 0) == nullptr);
  Pool.free(Whole);
  CHECK(poolEmpty());

  // Four words from hint 4 are words 4..7, but word 5 has a block in use: the
  // run gives word 4 back and takes words 0..3 instead.
  void *Small = Pool.alloc(1, 5);
  void *Four = Pool.alloc(4 * 32 * 64 - 16, 4);
  CHECK(Small == &Pool.Data[5 * 32 * 64 + 16]);
  CHECK(Four == &Pool.Data[16]);
  CHECK(Pool.Used[4] == 0 && Pool.Used[5] == 1u);
  Pool.free(Small);
  Pool.free(Four);
  CHECK(poolEmpty());
}

// A search looks at 64 words from its hint: in a pool of 128 words whose
// first 64 are full, a search from word 0 fails, one from word 64 does not.
static ompx::pool::GlobalPoolTy<64, 128 * 32> BigPool;

static void boundedSearch() {
  const uint64_t WordSize = 32 * 64 - 16;
  CHECK(decltype(BigPool)::MaxProbes == 64);
  std::vector<void *> Words;
  for (uint32_t W = 0; W < 64; ++W) {
    Words.push_back(BigPool.alloc(WordSize, W));
    CHECK(Words.back() == &BigPool.Data[W * 32 * 64 + 16]);
  }
  CHECK(BigPool.alloc(1, 0) == nullptr);
  CHECK(BigPool.alloc(1, 128) == nullptr); // Hints wrap around.
  void *Far = BigPool.alloc(1, 64);
  CHECK(Far == &BigPool.Data[64 * 32 * 64 + 16]);
  BigPool.free(Far);
  for (void *P : Words)
    BigPool.free(P);
  CHECK(BigPool.alloc(1, 0) == &BigPool.Data[16]);
}

// Threads allocate runs of random sizes, fill them with their own pattern and
// check it before they free them: two owners of a block at once would
// overwrite each other's pattern.
static std::atomic<int> Corrupted{0}, Served{0}, Refused{0};

static void worker(unsigned Seed) {
  struct Live {
    unsigned char *P;
    uint32_t Size;
    unsigned char Byte;
  };
  std::vector<Live> Held;
  for (int Round = 0; Round < 20000; ++Round) {
    Seed = Seed * 1103515245u + 12345u;
    if (Held.size() < 6 && (Seed >> 8) % 3) {
      uint32_t Limit = Seed % 7 ? 112 : Seed % 5 ? 2032 : PoolTy::MaxSize;
      uint32_t Size = 1 + (Seed >> 12) % Limit;
      auto *P = static_cast<unsigned char *>(Pool.alloc(Size, Seed >> 20));
      if (!P) {
        ++Refused;
        continue;
      }
      ++Served;
      unsigned char Byte = static_cast<unsigned char>(Seed >> 3);
      std::memset(P, Byte, Size);
      Held.push_back({P, Size, Byte});
    } else if (!Held.empty()) {
      Live L = Held[(Seed >> 9) % Held.size()];
      for (uint32_t I = 0; I < L.Size; ++I)
        if (L.P[I] != L.Byte) {
          ++Corrupted;
          break;
        }
      Pool.free(L.P);
      for (auto &H : Held)
        if (H.P == L.P) {
          H = Held.back();
          Held.pop_back();
          break;
        }
    }
  }
  for (Live &L : Held)
    Pool.free(L.P);
}

int main() {
  sequential();
  boundedSearch();

  std::vector<std::thread> Threads;
  for (unsigned T = 0; T < 8; ++T)
    Threads.emplace_back(worker, 7919u * (T + 1));
  for (auto &T : Threads)
    T.join();
  CHECK(Corrupted == 0);
  CHECK(Served > 1000 && Refused > 0); // The pool ran full at times.
  CHECK(poolEmpty());

  std::printf("%s: %d served, %d refused, %d corrupted\n",
              Failures ? "FAIL" : "PASS", Served.load(), Refused.load(),
              Corrupted.load());
  return Failures != 0;
}
