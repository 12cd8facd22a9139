/** A ban list of `lines` addresses, one per line, one in ten IPv6: what an operator's import looks like. */
export function banListLines(lines: number): string[] {
  const list: string[] = [];
  for (let i = 0; i < lines; i++)
    list.push(
      i % 10 === 9
        ? `2001:db8:${(i >> 16).toString(16)}::${(i & 0xffff).toString(16)}`
        : `100.${64 + ((i >> 16) & 63)}.${(i >> 8) & 255}.${i & 255}`,
    );
  return list;
}
