// docs/product.md §3 size chart, in inches.

export interface GarmentSize {
  size: string;
  chest: string;
  length: string;
  sleeve: string;
  fit: string;
}

export const teeSizes: GarmentSize[] = [
  { size: 'XS', chest: '32-34', length: '26', sleeve: '7.5', fit: 'Slim' },
  { size: 'S', chest: '34-36', length: '27', sleeve: '8', fit: 'Slim' },
  { size: 'M', chest: '38-40', length: '28', sleeve: '8.5', fit: 'Regular' },
  { size: 'L', chest: '42-44', length: '29', sleeve: '9', fit: 'Regular' },
  { size: 'XL', chest: '46-48', length: '30', sleeve: '9.5', fit: 'Relaxed' },
  { size: 'XXL', chest: '50-52', length: '31', sleeve: '10', fit: 'Relaxed' },
];

export const hoodieSizes: GarmentSize[] = [
  { size: 'XS', chest: '34-36', length: '25', sleeve: '24', fit: 'Fitted' },
  { size: 'S', chest: '36-38', length: '26', sleeve: '25', fit: 'Regular' },
  { size: 'M', chest: '40-42', length: '27', sleeve: '26', fit: 'Regular' },
  { size: 'L', chest: '44-46', length: '28', sleeve: '27', fit: 'Oversized' },
  { size: 'XL', chest: '48-50', length: '29', sleeve: '28', fit: 'Oversized' },
  { size: 'XXL', chest: '52-54', length: '30', sleeve: '29', fit: 'Oversized' },
];

export const headwear = [
  { item: 'Caps', size: 'One size', fit: 'Adjustable strap, 21.5 to 24 inches head circumference' },
  { item: 'Beanies', size: 'One size', fit: 'Stretch fit rib knit, fits most heads' },
];

export const bags = [
  { item: 'Tote bag', dimensions: '15 x 16 x 3' },
  { item: 'Backpack', dimensions: '18 x 12 x 6' },
  { item: 'Small bag', dimensions: '8 x 6 x 2' },
];
