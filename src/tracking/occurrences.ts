// When two source reports are the same occurrence: shared by normalize (dedup within one refresh), detectChanges
// (matching a new report with a stored one) and port-calls (the line's on-board events of the POD vessel).

/** Whether two reports can be the same occurrence: vessels and voyages agree wherever both name them. */
export function compatibleVessels(
  a: { vesselImo: string | null; vesselName: string | null; voyage: string | null },
  b: { vesselImo: string | null; vesselName: string | null; voyage: string | null },
): boolean {
  if (a.vesselImo && b.vesselImo) {
    if (a.vesselImo !== b.vesselImo) return false;
  } else if (a.vesselName && b.vesselName && a.vesselName.toUpperCase() !== b.vesselName.toUpperCase()) {
    return false;
  }
  return !(a.voyage && b.voyage && a.voyage.toUpperCase() !== b.voyage.toUpperCase());
}
