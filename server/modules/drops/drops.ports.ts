import type { Product } from '../../../common/contracts/catalog';

/**
 * What the waiting room needs from outside the drops module, declared here and wired in
 * server/services.ts: drops imports no other module (docs/architecture.md, "Module map").
 */

/** The catalogue's products (catalog). `Fresh`: read from the database, not the in-memory snapshot. */
export interface DropCatalog {
  getProduct(id: string): Promise<Product | null>;
  getProductFresh(id: string): Promise<Product | null>;
  listProducts(): Promise<Product[]>;
  listProductsFresh(): Promise<Product[]>;
}

/** The numbers of an edition as the inventory counts them. */
export interface EditionRoom {
  editionSize: number;
  /** Free pieces (neither held nor sold). */
  stock: number;
  sold: number;
  /** Pieces held in open checkouts. */
  held: number;
}

/** One size of a product's run as inventory counts it (ADR 015; inventory's readSizeStock fits it). */
export interface DropSizeStock {
  /** null: the "one run" of an edition not split into sizes. */
  size: string | null;
  colour: string | null;
  /** Pieces not yet sold or held. */
  left: number;
  /** When this size's last piece was sold; null while it has pieces. */
  soldOutAt: Date | null;
  /** Pieces of this size held in checkouts and sold (the owner's Drops view; absent: not counted). */
  held?: number;
  sold?: number;
}

/** Stock of drop products (inventory). */
export interface DropInventory {
  stockOf(productId: string): Promise<{ stock: number } | null>;
  /** The size runs of these products, in run order (absent from the map: not split). Absent: no sizes. */
  sizeStock?(productIds: readonly string[]): Promise<Map<string, DropSizeStock[]>>;
  editionRoom(productId: string): Promise<EditionRoom | null>;
  /** Several editions in one query (the owner's list). */
  editionRooms(productIds: readonly string[]): Promise<Map<string, EditionRoom>>;
}

/** The proof-of-work check a join spends (bot-check): throws the 400 to answer when it does not hold. */
export interface DropBotCheck {
  verify(altcha: string): Promise<void>;
}

/** Of these sessions, those that hold or bought the product (checkout's answer): no longer promised a piece. */
export type EngagedSessions = (productId: string, sessionIds: readonly string[]) => Promise<ReadonlySet<string>>;

export interface DropSettings {
  /** DROP_RAFFLE_MINUTES in ms. */
  raffleMs: number;
  /** DROP_WINDOW_MINUTES in ms. */
  windowMs: number;
  /** DROP_PLACES_PER_ADDRESS. */
  placesPerAddress: number;
  /** DROP_PASS_MINUTES in ms. */
  passMs: number;
  /** IPv6 addresses count by this prefix (IPV6_PREFIX). */
  ipv6Prefix?: number;
  /** DROP_OVERBOOKING: live admissions may reach the free pieces × (1 + this) (ADR 010). */
  overbooking?: number;
}
