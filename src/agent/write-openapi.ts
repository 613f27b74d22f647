// Rewrites docs/agent-api.yaml from the command map: `npm run build && node dist/src/agent/write-openapi.js`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../config/package-info.js';
import { agentApiYaml } from './openapi.js';

const file = join(packageRoot(), 'docs', 'agent-api.yaml');
writeFileSync(file, agentApiYaml());
process.stdout.write(`wrote ${file}\n`);
