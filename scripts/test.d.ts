/** Runs `background` (steps one after another, output held and written in one piece) beside `foreground` (output live); resolves with the first failure's exit code, or 0. */
export function sideBySide(plan: { background: string[][]; foreground: string[]; write?: (text: string) => void }): Promise<number>;
