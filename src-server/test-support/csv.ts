/** RFC 4180 cells, read independently of the import's reader. */
export function csvCells(csv: string): string[][] {
  const rows: string[][] = [[]];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    rows.at(-1)!.push(cell);
    cell = '';
  };
  for (let i = 0; i < csv.length; i++) {
    const c = csv[i]!;
    if (quoted && c === '"' && csv[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (quoted) cell += c;
    else if (c === ',') endCell();
    else if (c === '\n') {
      endCell();
      rows.push([]);
    } else cell += c;
  }
  if (rows.at(-1)!.length === 0) rows.pop();
  return rows;
}
