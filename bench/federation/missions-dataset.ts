/**
 * The bench's data, generated the same on every side from a seed: astronauts (owned by the reference
 * subgraph) and missions with their crews (owned by Trellis, or by the plain subgraph that stands in for it).
 */
import { Prng } from "../graphdb/prng.ts";

export interface Astronaut {
  id: string;
  name: string;
  age: number;
}

export interface Mission {
  /** The plain subgraph's id; Trellis gives each mission its own uid. */
  id: string;
  designation: string;
  /** Astronaut ids. */
  crew: string[];
}

export interface MissionsDataset {
  astronauts: Astronaut[];
  missions: Mission[];
}

export const ASTRONAUTS = 2000;
export const MISSIONS = 1000;
/** Crew members per mission (each astronaut is then in about two missions). */
export const CREW = 4;

export function missionsDataset(): MissionsDataset {
  const rng = new Prng(13);
  const astronauts = Array.from({ length: ASTRONAUTS }, (_, i) => ({
    id: `a${i + 1}`,
    name: `Astronaut ${i + 1}`,
    age: 25 + rng.int(40),
  }));
  const missions = Array.from({ length: MISSIONS }, (_, i) => {
    const crew = new Set<string>();
    while (crew.size < CREW) crew.add(astronauts[rng.int(ASTRONAUTS)].id);
    return { id: `m${i + 1}`, designation: `Mission ${i + 1}`, crew: [...crew] };
  });
  return { astronauts, missions };
}
