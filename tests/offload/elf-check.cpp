// Runs the offload plugins' ELF checks on one image file and prints what they
// decide; used by cuda-elf-flags.sh with the patched and the unpatched
// offload/plugins-nextgen/common/src/Utils/ELF.cpp.
#include "Utils/ELF.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

int main(int Argc, char **Argv) {
  if (Argc != 2) {
    llvm::errs() << "usage: elf-check IMAGE\n";
    return 2;
  }
  auto BufOrErr = llvm::MemoryBuffer::getFile(Argv[1]);
  if (!BufOrErr) {
    llvm::errs() << Argv[1] << ": " << BufOrErr.getError().message() << "\n";
    return 2;
  }
  llvm::StringRef Image = (*BufOrErr)->getBuffer();
  auto OkOrErr = utils::elf::checkMachine(Image, llvm::ELF::EM_CUDA);
  if (!OkOrErr) {
    llvm::outs() << "checkMachine: error: " << llvm::toString(OkOrErr.takeError())
                 << "\n";
  } else {
    llvm::outs() << "checkMachine: " << (*OkOrErr ? "cuda" : "not cuda") << "\n";
  }
#ifdef HAVE_GET_CUDA_SM_VERSION
  auto *Bytes = reinterpret_cast<const unsigned char *>(Image.data());
  uint32_t Flags = Bytes[48] | Bytes[49] << 8 | Bytes[50] << 16 | Bytes[51] << 24;
  llvm::outs() << "sm: "
               << utils::elf::getCUDASMVersion(Bytes[llvm::ELF::EI_ABIVERSION], Flags)
               << "\n";
#endif
  return 0;
}
