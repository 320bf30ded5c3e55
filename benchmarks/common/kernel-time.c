/* Device time of every kernel a program launches, from the CUDA driver.
 *
 * A CUDA injection library: with CUDA_INJECTION64_PATH=<this library> the
 * driver loads it at cuInit and calls InitializeInjection, which turns on
 * CUPTI's kernel activity records.  At exit every kernel launch is appended
 * to the file named by OMPDS_KERNEL_TIMES (or stderr) as one line
 *
 *   KTIME <duration in ns> <kernel name>
 *
 * The duration is the GPU's start-to-end timestamp of the kernel: no launch,
 * no host synchronization, no data transfer.  It works the same for OpenMP
 * binaries (whose libomptarget loads libcuda itself) and CUDA ones, which is
 * why benchmarks/run-gpu --device-time uses it instead of in-program timers.
 *
 * Built by benchmarks/pack-device:
 *   cc -shared -fPIC -O2 -I$CUDA/include kernel-time.c -o libkerneltime.so \
 *      -L<dir of libcupti.so.13> -lcupti -Wl,-rpath,'$ORIGIN'
 */
#include <cupti.h>
#include <stdio.h>
#include <stdlib.h>

#define KT_BUFFER_SIZE (8u << 20)

static FILE *Out;

static void report(const char *What, CUptiResult R) {
  const char *Msg = "";
  cuptiGetResultString(R, &Msg);
  fprintf(stderr, "kernel-time: %s failed: %s\n", What, Msg);
}

static void CUPTIAPI bufferRequested(uint8_t **Buffer, size_t *Size,
                                     size_t *MaxRecords) {
  *Buffer = (uint8_t *)aligned_alloc(8, KT_BUFFER_SIZE);
  *Size = *Buffer ? KT_BUFFER_SIZE : 0;
  *MaxRecords = 0;
}

static void CUPTIAPI bufferCompleted(CUcontext Ctx, uint32_t Stream,
                                     uint8_t *Buffer, size_t Size,
                                     size_t Valid) {
  (void)Ctx;
  (void)Stream;
  (void)Size;
  CUpti_Activity *Rec = NULL;
  while (cuptiActivityGetNextRecord(Buffer, Valid, &Rec) == CUPTI_SUCCESS) {
    if (Rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL &&
        Rec->kind != CUPTI_ACTIVITY_KIND_KERNEL)
      continue;
    const CUpti_ActivityKernel10 *K = (const CUpti_ActivityKernel10 *)Rec;
    fprintf(Out ? Out : stderr, "KTIME %llu %s\n",
            (unsigned long long)(K->end - K->start),
            K->name ? K->name : "?");
  }
  size_t Dropped = 0;
  if (cuptiActivityGetNumDroppedRecords(Ctx, Stream, &Dropped) ==
          CUPTI_SUCCESS &&
      Dropped)
    fprintf(stderr, "kernel-time: %zu records dropped\n", Dropped);
  free(Buffer);
}

static void flushAtExit(void) {
  CUptiResult R = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  if (R != CUPTI_SUCCESS)
    report("cuptiActivityFlushAll", R);
  if (Out)
    fclose(Out);
  Out = NULL;
}

int InitializeInjection(void) {
  const char *Path = getenv("OMPDS_KERNEL_TIMES");
  if (Path && *Path && !(Out = fopen(Path, "a"))) {
    perror(Path);
    return 0;
  }
  CUptiResult R = cuptiActivityRegisterCallbacks(bufferRequested,
                                                 bufferCompleted);
  if (R != CUPTI_SUCCESS) {
    report("cuptiActivityRegisterCallbacks", R);
    return 0;
  }
  /* CONCURRENT_KERNEL does not serialize the kernels, KERNEL would. */
  R = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  if (R != CUPTI_SUCCESS) {
    report("cuptiActivityEnable", R);
    return 0;
  }
  /* Registered after the runtime's own exit handlers, so it runs before
     libomptarget tears the CUDA context down. */
  atexit(flushAtExit);
  return 1;
}
