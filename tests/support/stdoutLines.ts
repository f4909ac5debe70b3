/** The lines `work` writes to stdout (log and metrics lines), kept from the terminal; stdout is given back however it ends. */
export async function stdoutLines(work: () => unknown): Promise<string[]> {
  const lines: string[] = [];
  const spy = jest.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return lines;
}
