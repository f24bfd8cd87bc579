// `/`: the shipments for signed-in users, the sign-in page for everyone else.
import { Redirect } from '../app';
import type { PageProps } from '../routes';

export default function Home({ session }: PageProps) {
  return <Redirect to={session ? '/shipments' : '/signin'} />;
}
