import { ProductImage } from '../../components/product-image';
import { cn } from '../../lib/cn';

interface ProductGalleryProps {
  name: string;
  images: readonly string[];
  activeIndex: number;
  onSelect: (index: number) => void;
}

/** Main image (the page's LCP: eager, high priority) and a 4-column thumbnail strip when there is more than one. */
export function ProductGallery({ name, images, activeIndex, onSelect }: ProductGalleryProps) {
  const current = images[activeIndex] ?? images[0];
  return (
    <div className="flex flex-col gap-3">
      <div className="relative aspect-square overflow-hidden bg-bone">
        {current ? (
          <ProductImage
            key={current}
            src={current}
            alt={images.length > 1 ? `${name}, image ${activeIndex + 1} of ${images.length}` : name}
            priority
            sizes="(min-width: 1024px) 50vw, 100vw"
            className="h-full w-full object-cover"
          />
        ) : (
          <div
            className="flex h-full w-full items-center justify-center font-display text-6xl uppercase text-muted"
            aria-hidden="true"
          >
            50
          </div>
        )}
      </div>
      {images.length > 1 && (
        <ul className="grid grid-cols-4 gap-3" aria-label="Product images">
          {images.map((src, i) => (
            <li key={`${src}-${i}`}>
              <button
                type="button"
                aria-label={`View image ${i + 1}`}
                aria-pressed={i === activeIndex}
                aria-current={i === activeIndex ? 'true' : undefined}
                onClick={() => onSelect(i)}
                className={cn(
                  'block aspect-square w-full cursor-pointer overflow-hidden border-2 bg-bone transition',
                  i === activeIndex ? 'border-ink' : 'border-transparent opacity-80 hover:opacity-100',
                )}
              >
                <ProductImage
                  src={src}
                  alt=""
                  sizes="(min-width: 1024px) 12vw, 25vw"
                  width={400}
                  height={400}
                  className="h-full w-full object-cover"
                />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
