// Tidemark's own predicted arrival at the port of discharge (shipment `predicted_pod_eta_at`: from the POD
// vessel's AIS position, the sea route left and its recent speed), in the POD's zone like the other times, with
// the reason sentence when the prediction and the carrier's ETA are more than 12 hours apart.
import { Badge } from './Facts';
import { Time } from './Time';

export const PREDICTED_LABEL = 'Predicted arrival (Tidemark)';

export function PredictedEta({ at, reason, zone }: { at: string; reason: string | null | undefined; zone: string | null | undefined }) {
  return (
    <span class="predicted-eta" data-testid="predicted-eta">
      <Badge tone="info">Predicted</Badge> <Time domain value={at} zone={zone} />
      {reason && (
        <span class="predicted-reason" data-testid="predicted-eta-reason">
          {reason}
        </span>
      )}
    </span>
  );
}
