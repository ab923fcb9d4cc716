// Swagger UI's start on /docs (served as /docs/assets/init.js, after swagger-ui-bundle.js).
// "Try it out" must call the server that serves this page, at whatever address the browser reached
// it; the document's own `servers` name the default local start. The raw /openapi.yaml is left as
// written: only this page's copy of the parsed document gets the page's origin as its server.
// No online validator (validatorUrl) and no top bar with its "Explore" box: the page loads only
// this server's document, from this server.
// Signed in in this tab (the landing page keeps the tokens, tabSignIn.ts), the page starts authorised:
// each bearer scheme of the document gets the access token (reissued first when it expired), as if
// it had been pasted into the Authorize dialog, so "Try it out" sends it. The #swagger-ui element's
// data attributes name getMe's and reissueToken's paths (swaggerUi.ts).
import { whoIsSignedIn } from './tabSignIn.js';

/** An OpenAPI document as Swagger UI holds it (an Immutable.js map) and gives it back (toJS). */
interface SpecJson {
  getIn(path: readonly string[]): { toJS(): unknown } | undefined;
}

/** The parts of Swagger UI's system this script uses. */
interface SwaggerUi {
  specSelectors: { specJson(): SpecJson };
  preauthorizeApiKey(name: string, value: string): void;
}

/** What a plugin's wrapped action gets and gives: the parsed document, as a plain object. */
type SpecUpdate = (spec: Record<string, unknown>) => unknown;

/** swagger-ui-bundle.js's global; the page loads it before this module. */
declare const SwaggerUIBundle: ((options: Record<string, unknown>) => SwaggerUi) & { presets: { apis: unknown } };

declare global {
  interface Window {
    ui: SwaggerUi;
  }
}

/** A security scheme of the document, as far as this script reads it. */
interface SecurityScheme {
  type?: string;
  scheme?: string;
}

const paths = document.getElementById('swagger-ui')?.dataset ?? {};

const thisServer = () => ({
  statePlugins: {
    spec: {
      wrapActions: {
        updateJsonSpec: (update: SpecUpdate) => (spec: Record<string, unknown>) =>
          update({ ...spec, servers: [{ url: window.location.origin, description: 'This server (the one serving these docs)' }] }),
      },
    },
  },
});

async function authoriseAsSignedIn(ui: SwaggerUi) {
  const signedIn = await whoIsSignedIn({ mePath: paths.me ?? '', reissuePath: paths.reissue ?? '' });
  if (!signedIn) return;
  const schemes = (ui.specSelectors.specJson().getIn(['components', 'securitySchemes'])?.toJS() ?? {}) as Record<string, SecurityScheme>;
  for (const [name, scheme] of Object.entries(schemes)) {
    if (scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'bearer') ui.preauthorizeApiKey(name, signedIn.tokens.accessToken);
  }
}

const ui = SwaggerUIBundle({
  url: '/openapi.yaml',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  plugins: [thisServer],
  layout: 'BaseLayout',
  validatorUrl: 'none',
  onComplete: () => void authoriseAsSignedIn(ui),
});
window.ui = ui;
