// What a simulator is to the line it is attached to: it attaches to a byte link and answers
// like the unit it plays; the returned function detaches it.
import type { ByteLink } from '../link.js';

export interface Simulator {
  attach(link: ByteLink): () => void;
}
