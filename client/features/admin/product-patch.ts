import type { ProductPayload } from '../../../common/contracts/admin';
import type { ProductPatch } from './use-admin-data';

/** react-hook-form's dirtyFields entry: true, or per item/property of an array or object field. */
type DirtyEntry = boolean | DirtyEntry[] | { [key: string]: DirtyEntry } | undefined;

const isDirty = (entry: DirtyEntry): boolean =>
  entry === true || (Array.isArray(entry) ? entry.some(isDirty) : typeof entry === 'object' && entry !== null && Object.values(entry).some(isDirty));

/**
 * The PATCH body of a product edit: the parsed values of the fields the owner changed, nothing else; with a
 * stock change, `expectedStock` is the stock the form loaded (the server answers 409 when a sale moved it).
 * An array field (images, sizes, colours) is sent whole when any of its items changed.
 */
export function productPatchOf(
  payload: ProductPayload,
  dirtyFields: Partial<Record<keyof ProductPayload, DirtyEntry>>,
  loadedStock: number,
): ProductPatch {
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(dirtyFields) as Array<keyof ProductPayload>) {
    if (key in payload && isDirty(dirtyFields[key])) patch[key] = payload[key];
  }
  if ('stock' in patch) patch.expectedStock = loadedStock;
  return patch as ProductPatch;
}
