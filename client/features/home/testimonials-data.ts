// docs/product.md §3 hard-coded display data: testimonial (name, location, rating 1-5, review text; 9 entries).

export interface Testimonial {
  name: string;
  location: string;
  rating: 1 | 2 | 3 | 4 | 5;
  review: string;
}

export const TESTIMONIALS: readonly Testimonial[] = [
  {
    name: 'Maya R.',
    location: 'Brooklyn, NY',
    rating: 5,
    review:
      'Got number 12 of 50 on the Concrete Bloom tee. The weight of the cotton is unreal and nobody on my block has one.',
  },
  {
    name: 'Jordan T.',
    location: 'Oakland, CA',
    rating: 5,
    review:
      'Finally a brand that means it when they say limited. Missed a drop once and it never came back — now I am on the list.',
  },
  {
    name: 'Sofia L.',
    location: 'Chicago, IL',
    rating: 4,
    review:
      'The Block Party hoodie is the warmest thing I own. Took a little longer to arrive because it is made to order, worth it.',
  },
  {
    name: 'Dev P.',
    location: 'Austin, TX',
    rating: 5,
    review:
      'Packaging was plastic-free and the print still looks brand new after twenty washes. Quality you can feel.',
  },
  {
    name: 'Amara O.',
    location: 'Atlanta, GA',
    rating: 5,
    review:
      'I love that every piece is numbered. It feels like owning art you can actually wear to the corner store.',
  },
  {
    name: 'Kenji M.',
    location: 'Seattle, WA',
    rating: 4,
    review:
      'Sizing runs true to the guide. I went up one like they suggested for a relaxed fit and it drapes perfectly.',
  },
  {
    name: 'Lena W.',
    location: 'Portland, OR',
    rating: 5,
    review: 'Support answered my question about the bamboo tee within a few hours. Small brand, big care.',
  },
  {
    name: 'Marcus B.',
    location: 'Philadelphia, PA',
    rating: 5,
    review:
      'The Transit backpack has carried my laptop every day for months. Sturdy, clean design, zero logos screaming at you.',
  },
  {
    name: 'Priya S.',
    location: 'Toronto, ON',
    rating: 4,
    review:
      'Shipping to Canada was quick and the tracking updates were spot on. Already eyeing the next hoodie drop.',
  },
];
