export function count(items: string[]): number {
  const total: number = items.join(",");
  return total;
}
