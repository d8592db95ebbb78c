import { Plus, Trash2 } from 'lucide-react';
import { useId } from 'react';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import {
  demoSizeRun,
  findPreset,
  MAX_SIZE_LABEL,
  MAX_SIZES,
  presetForCategory,
  SIZE_PRESETS,
  validateSizeRun,
  type SizePresetId,
  type SizeRunEntry,
} from '../../../common/domain/size-run';

/**
 * The owner's size run (ADR 015): a preset or free sizes, the pieces of each, and the sum checked against
 * the edition inline ('Sizes add up to 45 of 50 pieces.', announced politely as it changes). Controlled:
 * the product form owns the run and sends it; the server checks it again (replaceSizeRun).
 */
export function SizeRunEditor({
  category,
  subcategory,
  editionSize,
  value,
  onChange,
  keptPieces = 0,
}: {
  category: string;
  subcategory?: string | null;
  editionSize: number;
  value: readonly SizeRunEntry[];
  onChange: (run: SizeRunEntry[]) => void;
  /** Pieces held or sold before the edition was split into sizes: they stay out of the run. */
  keptPieces?: number;
}) {
  const id = useId();
  const check = validateSizeRun(value, editionSize, keptPieces);
  const rowIssue = (index: number, field: 'size' | 'pieces') =>
    check.issues.find((i) => i.index === index && i.field === field)?.message;
  const runIssues = check.issues.filter((i) => i.index === null && i.message !== check.sumMessage);
  const suggested = presetForCategory(category, subcategory).id;

  const applyPreset = (presetId: string) => {
    const preset = findPreset(presetId as SizePresetId);
    // A realistic split to start from (5/10/15/10/5/5 for tees), which the owner then edits.
    onChange(demoSizeRun(preset.sizes, Math.max(0, editionSize - keptPieces)));
  };
  const update = (index: number, patch: Partial<SizeRunEntry>) =>
    onChange(value.map((e, i) => (i === index ? { ...e, ...patch } : e)));
  const remove = (index: number) => onChange(value.filter((_, i) => i !== index));
  const add = () => onChange([...value, { size: '', pieces: 0 }]);

  return (
    <fieldset className="grid min-w-0 grid-cols-1 gap-3">
      <legend className="mb-1 text-sm font-semibold">Sizes and pieces</legend>
      <div className="grid min-w-0 grid-cols-1 gap-1.5 sm:max-w-sm">
        <Label htmlFor={`${id}-preset`}>Start from</Label>
        <Select onValueChange={applyPreset}>
          <SelectTrigger id={`${id}-preset`} className="min-w-0 [&>span]:truncate">
            <SelectValue placeholder={`Choose a preset (suggested: ${findPreset(suggested).label})`} />
          </SelectTrigger>
          <SelectContent>
            {SIZE_PRESETS.map((p) => (
              <SelectItem key={p.id} value={p.id}>
                {p.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      {keptPieces > 0 && (
        <p className="text-sm text-muted">
          {keptPieces} held or sold before sizes: they stay out of the run.
        </p>
      )}
      <ul className="grid gap-2" aria-label="Sizes">
        {value.map((entry, index) => {
          const sizeId = `${id}-size-${index}`;
          const piecesId = `${id}-pieces-${index}`;
          const sizeError = rowIssue(index, 'size');
          const piecesError = rowIssue(index, 'pieces');
          const name = entry.size.trim() || `row ${index + 1}`;
          return (
            <li key={index} className="grid grid-cols-[minmax(0,1fr)_5.5rem_auto] items-end gap-2">
              <div className="grid min-w-0 gap-1">
                <Label htmlFor={sizeId}>
                  Size <span className="sr-only">{index + 1}</span>
                </Label>
                <Input
                  id={sizeId}
                  value={entry.size}
                  maxLength={MAX_SIZE_LABEL + 5}
                  autoComplete="off"
                  aria-invalid={sizeError ? true : undefined}
                  aria-describedby={sizeError ? `${sizeId}-error` : undefined}
                  onChange={(e) => update(index, { size: e.target.value })}
                />
              </div>
              <div className="grid gap-1">
                <Label htmlFor={piecesId}>
                  Pieces <span className="sr-only">of {name}</span>
                </Label>
                <Input
                  id={piecesId}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={editionSize}
                  step={1}
                  value={Number.isFinite(entry.pieces) ? entry.pieces : ''}
                  aria-invalid={piecesError ? true : undefined}
                  aria-describedby={piecesError ? `${piecesId}-error` : undefined}
                  onChange={(e) =>
                    update(index, { pieces: e.target.value === '' ? Number.NaN : Number(e.target.value) })
                  }
                />
              </div>
              <Button
                type="button"
                variant="ghost"
                size="icon"
                className="h-11 w-11"
                aria-label={`Remove size ${name}`}
                onClick={() => remove(index)}
              >
                <Trash2 className="h-5 w-5" aria-hidden="true" />
              </Button>
              {sizeError && (
                <p id={`${sizeId}-error`} className="col-span-3 text-sm font-medium text-red-700">
                  {sizeError}
                </p>
              )}
              {piecesError && (
                <p id={`${piecesId}-error`} className="col-span-3 text-sm font-medium text-red-700">
                  {piecesError}
                </p>
              )}
            </li>
          );
        })}
      </ul>
      <Button
        type="button"
        variant="outline"
        size="sm"
        className="min-h-11 justify-self-start"
        onClick={add}
        disabled={value.length >= MAX_SIZES}
      >
        <Plus className="h-4 w-4" aria-hidden="true" />
        Add size
      </Button>
      <p
        aria-live="polite"
        className={
          check.sum === check.target ? 'text-sm font-semibold text-ink' : 'text-sm font-semibold text-red-700'
        }
      >
        {check.sumMessage}
      </p>
      {runIssues.map((i) => (
        <p key={i.message} className="text-sm font-medium text-red-700">
          {i.message}
        </p>
      ))}
    </fieldset>
  );
}
