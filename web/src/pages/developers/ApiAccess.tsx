// The account's plan and API trial (GET /v2/account): a free account's API keys read tracking data only during an
// API trial the operator starts (docs/api.md "Plans and the API trial"); this page says which applies and what to do.
// The web app itself is never gated.
import { Notice } from '../../components/Alert';
import { Async } from '../../components/Async';
import { Badge, Facts } from '../../components/Facts';
import { Section } from '../../components/Page';
import { Time } from '../../components/Time';
import { api } from '../../lib/api';
import { useLoad } from '../../lib/hooks';
import type { Doc } from '../../lib/jsonapi';
import type { AccountAttributes } from '../../lib/resources';

const PLAN_NAMES: Record<AccountAttributes['plan'], string> = { free: 'Free (up to 10 active containers)', unlimited: 'Unlimited' };

export function ApiAccess() {
  const account = useLoad((signal) => api.get<Doc<AccountAttributes>>('/v2/account', { signal }), []);
  return (
    <Section id="api-access" title="Plan and API access">
      <Async state={account} label="Loading your plan…">
        {(doc) => {
          const a = doc.data.attributes;
          return (
            <>
              <Facts
                items={[
                  ['Plan', PLAN_NAMES[a.plan]],
                  [
                    'API access',
                    a.api_access === 'trial' ? (
                      <Badge tone="info">API trial</Badge>
                    ) : a.api_access === 'enabled' ? (
                      <Badge tone="good">Enabled</Badge>
                    ) : (
                      <Badge tone="warn">Needs an API trial</Badge>
                    ),
                  ],
                  ['API trial ends', a.trial_ends_at ? <Time value={a.trial_ends_at} /> : a.plan === 'free' ? 'No trial' : null],
                ]}
              />
              {a.api_access === 'trial_required' && a.api_access_detail && (
                <Notice tone="warning">
                  <p class="api-trial-required">{a.api_access_detail}</p>
                </Notice>
              )}
            </>
          );
        }}
      </Async>
    </Section>
  );
}
