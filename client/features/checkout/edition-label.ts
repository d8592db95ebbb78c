/** "No. 17 of 50": each unit of a limited design carries its own number. */
export function editionLabel(number: number, editionSize: number): string {
  return `No. ${number} of ${editionSize}`;
}
