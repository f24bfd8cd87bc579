// The rail leg of an inland move: the railroads, loaded and departed at the port, the inland ETA and arrival,
// unloaded, picked up at the inland facility. Port times in the port's zone, inland ones in the destination's.
import { Badge, Facts } from '../../components/Facts';
import { Time } from '../../components/Time';
import type { ContainerAttributes } from '../../lib/tracking';

export const hasRailLeg = (c: ContainerAttributes) =>
  !!(c.pod_rail_carrier_scac || c.ind_rail_carrier_scac || c.pod_rail_loaded_at || c.ind_eta_at || c.ind_ata_at);

export function RailLeg({ c }: { c: ContainerAttributes }) {
  const pod = c.pod_timezone;
  const inland = c.final_destination_timezone ?? pod;
  return (
    <Facts
      items={[
        ['Railroad from the port', c.pod_rail_carrier_scac],
        ['Inland railroad', c.ind_rail_carrier_scac],
        ['Loaded on rail', <Time domain value={c.pod_rail_loaded_at} zone={pod} />],
        ['Departed the port', <Time domain value={c.pod_rail_departed_at} zone={pod} />],
        [
          'Inland arrival',
          c.ind_ata_at ? (
            <>
              <Badge tone="good">Actual</Badge> <Time domain value={c.ind_ata_at} zone={inland} />
            </>
          ) : c.ind_eta_at ? (
            <>
              <Badge tone="info">Estimated</Badge> <Time domain value={c.ind_eta_at} zone={inland} />
            </>
          ) : null,
        ],
        ['Unloaded from rail', <Time domain value={c.ind_rail_unloaded_at} zone={inland} />],
        ['Picked up inland', <Time domain value={c.final_destination_full_out_at} zone={inland} />],
      ]}
    />
  );
}
