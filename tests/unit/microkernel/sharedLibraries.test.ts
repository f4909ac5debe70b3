import { sharedLibraries } from "../../../microkernel/initramfs";

describe("sharedLibraries", () => {
  it("reads ldd's list: each library's resolved path and the loader, once each, sorted; the vDSO has no file", () => {
    const ldd = [
      "\tlinux-vdso.so.1 (0x00007ffd4a5f2000)",
      "\tlibfreeipmi.so.17 => /lib/x86_64-linux-gnu/libfreeipmi.so.17 (0x00007f4d27800000)",
      "\tlibcrypto.so.3 => /lib/x86_64-linux-gnu/libcrypto.so.3 (0x00007f4d27200000)",
      "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f4d2701e000)",
      "\t/lib64/ld-linux-x86-64.so.2 (0x00007f4d27eda000)",
      "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f4d2701e000)",
      "",
    ].join("\n");
    expect(sharedLibraries(ldd)).toEqual([
      "/lib/x86_64-linux-gnu/libc.so.6",
      "/lib/x86_64-linux-gnu/libcrypto.so.3",
      "/lib/x86_64-linux-gnu/libfreeipmi.so.17",
      "/lib64/ld-linux-x86-64.so.2",
    ]);
  });

  it("answers nothing for a static program", () => {
    expect(sharedLibraries("\tnot a dynamic executable\n")).toEqual([]);
  });
});
