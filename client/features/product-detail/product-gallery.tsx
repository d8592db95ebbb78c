import { useState, type KeyboardEvent, type PointerEvent } from 'react';
import { ChevronLeft, ChevronRight, Maximize2, ZoomIn, ZoomOut } from 'lucide-react';
import { ProductImage } from '../../components/product-image';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
  DialogTrigger,
} from '../../components/ui/dialog';
import { cn } from '../../lib/cn';

interface ProductGalleryProps {
  name: string;
  images: readonly string[];
  activeIndex: number;
  onSelect: (index: number) => void;
}

const imageAlt = (name: string, i: number, count: number) =>
  count > 1 ? `${name}, image ${i + 1} of ${count}` : name;

/**
 * Main image (the page's LCP: eager, high priority) and a 4-column thumbnail strip when there is more
 * than one. The main image opens the zoom: the same pictures full screen, magnified on click or tap and
 * panned by the pointer. The zoom is an overlay, so opening it moves nothing on the page.
 */
export function ProductGallery({ name, images, activeIndex, onSelect }: ProductGalleryProps) {
  const [zoomOpen, setZoomOpen] = useState(false);
  const index = images[activeIndex] ? activeIndex : 0;
  const current = images[index];
  return (
    <Dialog open={zoomOpen} onOpenChange={setZoomOpen}>
      <div className="flex flex-col gap-3">
        <div className="relative aspect-square overflow-hidden bg-bone">
          {current ? (
            <>
              <ProductImage
                key={current}
                src={current}
                alt={imageAlt(name, index, images.length)}
                priority
                sizes="(min-width: 1024px) 50vw, 100vw"
                className="h-full w-full object-cover"
              />
              <DialogTrigger
                aria-label="Zoom image"
                className="group absolute inset-0 cursor-zoom-in focus-visible:outline-offset-[-4px]"
              >
                <span
                  aria-hidden="true"
                  className="absolute bottom-3 right-3 inline-flex h-10 w-10 items-center justify-center bg-surface/90 text-ink opacity-80 transition-opacity group-hover:opacity-100"
                >
                  <Maximize2 className="h-4 w-4" />
                </span>
              </DialogTrigger>
            </>
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
                  aria-pressed={i === index}
                  aria-current={i === index ? 'true' : undefined}
                  onClick={() => onSelect(i)}
                  className={cn(
                    'block aspect-square w-full cursor-pointer overflow-hidden border bg-bone transition',
                    i === index ? 'border-ink' : 'border-transparent opacity-80 hover:opacity-100',
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
        {current && <ZoomContent name={name} images={images} index={index} onSelect={onSelect} />}
      </div>
    </Dialog>
  );
}

const ZOOM = 2.5;

/** The zoom's content; it unmounts when closed, so it opens unmagnified every time. */
function ZoomContent({
  name,
  images,
  index,
  onSelect,
}: {
  name: string;
  images: readonly string[];
  index: number;
  onSelect: (index: number) => void;
}) {
  const [magnified, setMagnified] = useState(false);
  // Where the magnified picture is anchored, in % of the frame: follows the pointer.
  const [origin, setOrigin] = useState({ x: 50, y: 50 });
  const count = images.length;
  const carousel = count > 1;

  const go = (i: number) => {
    onSelect((i + count) % count);
    setMagnified(false);
    setOrigin({ x: 50, y: 50 });
  };
  const aim = (e: { currentTarget: HTMLElement; clientX: number; clientY: number }) => {
    const box = e.currentTarget.getBoundingClientRect();
    const clamp = (v: number) => Math.min(100, Math.max(0, v));
    setOrigin({
      x: clamp(((e.clientX - box.left) / box.width) * 100),
      y: clamp(((e.clientY - box.top) / box.height) * 100),
    });
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (!carousel) return;
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    e.preventDefault();
    go(index + step);
  };

  return (
    <DialogContent
      onKeyDown={onKeyDown}
      className="left-0 top-0 flex h-dvh max-h-none w-screen max-w-none translate-x-0 translate-y-0 flex-col gap-0 overflow-hidden border-0 bg-bone p-0 sm:p-0"
    >
      <DialogTitle className="sr-only">{name}</DialogTitle>
      <DialogDescription className="sr-only">
        {carousel ? `Image ${index + 1} of ${count}. ` : ''}Click or tap the image to magnify it, then move
        the pointer to look around.
      </DialogDescription>
      <div
        className={cn(
          'relative min-h-0 flex-1 overflow-hidden select-none',
          magnified ? 'cursor-zoom-out' : 'cursor-zoom-in',
        )}
        // Magnified, a finger pans the picture instead of scrolling the page.
        style={{ touchAction: magnified ? 'none' : 'manipulation' }}
        onPointerMove={(e: PointerEvent<HTMLDivElement>) => magnified && aim(e)}
        onClick={(e) => {
          // Magnify where the click or tap landed.
          if (!magnified) aim(e);
          setMagnified((m) => !m);
        }}
      >
        <ProductImage
          key={images[index]}
          src={images[index]!}
          alt={imageAlt(name, index, count)}
          sizes="100vw"
          priority
          draggable={false}
          className="h-full w-full object-contain transition-transform duration-200 ease-out motion-reduce:transition-none"
          style={{
            transform: magnified ? `scale(${ZOOM})` : undefined,
            transformOrigin: `${origin.x}% ${origin.y}%`,
          }}
        />
      </div>
      <div className="flex items-center justify-center gap-2 border-t border-hairline bg-paper px-4 py-3">
        <button
          type="button"
          aria-pressed={magnified}
          onClick={() => {
            setOrigin({ x: 50, y: 50 });
            setMagnified((m) => !m);
          }}
          className="inline-flex h-10 items-center gap-2 px-3 text-sm font-medium hover:underline"
        >
          {magnified ? (
            <ZoomOut className="h-4 w-4" aria-hidden="true" />
          ) : (
            <ZoomIn className="h-4 w-4" aria-hidden="true" />
          )}
          {magnified ? 'Zoom out' : 'Zoom in'}
        </button>
        {carousel && (
          <>
            <button
              type="button"
              aria-label="Previous slide"
              onClick={() => go(index - 1)}
              className="inline-flex h-10 w-10 items-center justify-center hover:bg-bone"
            >
              <ChevronLeft className="h-5 w-5" aria-hidden="true" />
            </button>
            <ul className="flex items-center gap-1" aria-label="Slides">
              {images.map((src, i) => (
                <li key={`${src}-${i}`}>
                  <button
                    type="button"
                    aria-label={`Go to slide ${i + 1}`}
                    aria-current={i === index ? 'true' : undefined}
                    onClick={() => go(i)}
                    className="inline-flex h-10 w-6 items-center justify-center"
                  >
                    <span
                      aria-hidden="true"
                      className={cn(
                        'block h-2 w-2 rounded-full',
                        i === index ? 'bg-ink' : 'bg-hairline-strong',
                      )}
                    />
                  </button>
                </li>
              ))}
            </ul>
            <button
              type="button"
              aria-label="Next slide"
              onClick={() => go(index + 1)}
              className="inline-flex h-10 w-10 items-center justify-center hover:bg-bone"
            >
              <ChevronRight className="h-5 w-5" aria-hidden="true" />
            </button>
          </>
        )}
      </div>
    </DialogContent>
  );
}
