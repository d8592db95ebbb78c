import { describe, expect, test } from 'vitest';
import sharp from 'sharp';
import { sniffImageType } from './image-type';

const pixel = () => sharp({ create: { width: 4, height: 4, channels: 3, background: '#c33' } });

describe('sniffImageType', () => {
  test('recognises JPEG, PNG, WebP and AVIF by their bytes', async () => {
    expect(sniffImageType(await pixel().jpeg().toBuffer())).toBe('image/jpeg');
    expect(sniffImageType(await pixel().png().toBuffer())).toBe('image/png');
    expect(sniffImageType(await pixel().webp().toBuffer())).toBe('image/webp');
    expect(sniffImageType(await pixel().avif().toBuffer())).toBe('image/avif');
  });

  test('refuses SVG, HTML, text, GIF and empty input', async () => {
    expect(
      sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')),
    ).toBeNull();
    expect(sniffImageType(Buffer.from('<!doctype html><html><script>alert(1)</script></html>'))).toBeNull();
    expect(sniffImageType(Buffer.from('just some text pretending to be a .png'))).toBeNull();
    expect(sniffImageType(await pixel().gif().toBuffer())).toBeNull();
    expect(sniffImageType(Buffer.alloc(0))).toBeNull();
  });

  test('refuses a HEIC/MP4 container that is not AVIF', () => {
    const box = Buffer.alloc(24);
    box.writeUInt32BE(24, 0);
    box.write('ftypheic', 4, 'latin1');
    box.write('mif1heic', 16, 'latin1');
    expect(sniffImageType(box)).toBeNull();
  });
});
