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
      <div className="mx-auto grid max-w-7xl gap-12 px-4 py-16 md:py-24 md:px-6 lg:grid-cols-[1fr_1.4fr]">
        <div className="flex flex-col items-start gap-6">
          <p className="type-eyebrow text-neutral-400">Why fifty</p>
          <h2 id="built-different" className="type-heading">
            Built Different
          </h2>
          <p className="max-w-md text-neutral-300 md:text-lg">
            Fast fashion floods the street with sameness. We make less, on purpose — so what you wear stays
            yours.
          </p>
          <Button asChild variant="inverse" size="lg">
            <Link href="/mission">Discover the Culture</Link>
          </Button>
        </div>
        <ul className="grid gap-x-10 gap-y-8 sm:grid-cols-2">
          {BLURBS.map(({ icon: Icon, title, text }) => (
            <li key={title} className="flex flex-col gap-3 border-t border-paper/15 pt-6">
              <Icon className="h-5 w-5 text-neutral-400" aria-hidden="true" />
              <h3 className="text-base font-semibold">{title}</h3>
              <p className="text-sm leading-relaxed text-neutral-400">{text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
