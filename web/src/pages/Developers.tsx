// `/developers`: API keys and webhooks.
import { Page } from '../components/Page';
import { ApiAccess } from './developers/ApiAccess';
import { ApiKeys } from './developers/ApiKeys';
import { Webhooks } from './developers/Webhooks';

export default function Developers() {
  return (
    <Page title="Developers">
      <p class="lead">
        Tidemark's REST API is at <code>{window.location.origin}/v2</code>, wire-compatible with the Terminal49 API v2. The reference is at{' '}
        <a href="/docs">/docs</a>.
      </p>
      <ApiAccess />
      <ApiKeys />
      <Webhooks />
    </Page>
  );
}
