import { Link } from 'wouter';
import { Hash, Leaf, Scissors, Users } from 'lucide-react';
import { Button } from '../../components/ui/button';

const BLURBS = [
  {
    icon: Hash,
    title: '50 Pieces. Ever.',
    text: 'Every design is capped at fifty pieces worldwide. Once the run sells out it is archived — never reprinted, never restocked.',
  },
  {
    icon: Scissors,
    title: 'Made to Order',
    text: 'Nothing sits in a warehouse. Each piece is cut, printed and finished after you order it, so nothing goes to landfill.',
  },
  {
    icon: Leaf,
    title: 'Sustainable by Default',
    text: 'Organic cotton, recycled fleece and bamboo blends, shipped in plastic-free packaging with carbon-neutral delivery.',
  },
  {
    icon: Users,
    title: 'Underground Community',
    text: 'Drops go to the list first. The people who wear FIFTY shape what comes next — designs, colourways and collabs.',
  },
] as const;

export function BuiltDifferent() {
  return (
    <section aria-labelledby="built-different" className="bg-ink text-paper">
      <div className="mx-auto grid max-w-7xl gap-12 px-4 py-16 md:px-6 md:py-24 lg:grid-cols-[1fr_1.4fr]">
        <div className="flex flex-col items-start gap-6">
          <p className="text-xs font-bold uppercase tracking-[0.3em] text-accent">Why fifty</p>
          <h2 id="built-different" className="font-display text-6xl uppercase leading-[0.9] md:text-8xl">
            Built Different
          </h2>
          <p className="max-w-md text-neutral-300 md:text-lg">
            Fast fashion floods the street with sameness. We make less, on purpose — so what you wear stays
            yours.
          </p>
          <Button asChild variant="accent" size="lg">
            <Link href="/mission">Discover the Culture</Link>
          </Button>
        </div>
        <ul className="grid gap-px bg-paper/15 sm:grid-cols-2">
          {BLURBS.map(({ icon: Icon, title, text }) => (
            <li key={title} className="flex flex-col gap-3 bg-ink p-6 md:p-8">
              <Icon className="h-8 w-8 text-accent" aria-hidden="true" />
              <h3 className="font-display text-2xl uppercase tracking-wide">{title}</h3>
              <p className="text-sm leading-relaxed text-neutral-300">{text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
