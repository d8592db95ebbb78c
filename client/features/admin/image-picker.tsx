import { useEffect, useId, useState, type ChangeEvent } from 'react';
import { ImagePlus, X } from 'lucide-react';
import { toast } from '../../components/ui/use-toast';
import { uploadImage } from './upload-images';
import { thumbnailSrc } from './thumbnail-src';

interface PendingUpload {
  key: string;
  name: string;
  progress: number;
}

interface ImagePickerProps {
  images: string[];
  onAppend: (paths: string[]) => void;
  onRemove: (index: number) => void;
  onUploadingChange: (uploading: boolean) => void;
}

let uploadSeq = 0;

/** Multi-file picker: each file goes through the three upload steps with its own progress bar. */
export function ImagePicker({ images, onAppend, onRemove, onUploadingChange }: ImagePickerProps) {
  const inputId = useId();
  const [pending, setPending] = useState<PendingUpload[]>([]);
  const uploading = pending.length > 0;
  useEffect(() => onUploadingChange(uploading), [uploading, onUploadingChange]);

  const onFiles = async (e: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(e.target.files ?? []);
    e.target.value = '';
    if (files.length === 0) return;
    const batch = files.map((file) => ({ file, key: `u${++uploadSeq}` }));
    setPending((p) => [...p, ...batch.map(({ file, key }) => ({ key, name: file.name, progress: 0 }))]);
    const results = await Promise.all(
      batch.map(({ file, key }) =>
        uploadImage(file, (fraction) =>
          setPending((p) => p.map((u) => (u.key === key ? { ...u, progress: fraction } : u))),
        ),
      ),
    );
    const keys = new Set(batch.map((b) => b.key));
    setPending((p) => p.filter((u) => !keys.has(u.key)));
    const paths = results.filter((r): r is string => r !== null);
    if (paths.length > 0) {
      onAppend(paths);
      toast({ title: 'Success', description: `${paths.length} image(s) uploaded successfully` });
    }
  };

  return (
    <div className="grid grid-cols-1 gap-3">
      <div>
        <input
          id={inputId}
          type="file"
          accept="image/*"
          multiple
          className="peer sr-only"
          onChange={onFiles}
        />
        <label
          htmlFor={inputId}
          className="inline-flex h-11 cursor-pointer items-center gap-2 border-2 border-dashed border-ink bg-white px-4 text-sm font-semibold uppercase tracking-wide hover:bg-black/5 peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-blue-600"
        >
          <ImagePlus className="h-4 w-4" aria-hidden="true" />
          Upload images
        </label>
        <p className="mt-1 text-xs text-muted">JPEG, PNG, WebP or AVIF, up to 10 MB each.</p>
      </div>

      {pending.length > 0 && (
        <ul className="grid grid-cols-1 gap-2" aria-label="Uploads in progress">
          {pending.map((u) => (
            <li key={u.key} className="grid gap-1 text-xs">
              <span className="truncate">{u.name}</span>
              <progress
                className="h-2 w-full accent-ink"
                max={100}
                value={Math.round(u.progress * 100)}
                aria-label={`Uploading ${u.name}`}
              />
            </li>
          ))}
        </ul>
      )}

      {images.length > 0 && (
        <ul className="grid grid-cols-3 gap-2 sm:grid-cols-4" aria-label="Product images">
          {images.map((src, i) => (
            <li key={`${src}-${i}`} className="relative aspect-square border border-neutral-300 bg-bone">
              <img
                src={thumbnailSrc(src)}
                alt={`Product image ${i + 1}`}
                className="h-full w-full object-cover"
              />
              <button
                type="button"
                onClick={() => onRemove(i)}
                aria-label={`Remove image ${i + 1}`}
                className="absolute right-1 top-1 inline-flex h-8 w-8 cursor-pointer items-center justify-center bg-ink text-paper hover:bg-red-700"
              >
                <X className="h-4 w-4" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
