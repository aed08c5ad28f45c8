// Every project whose tests make temp dirs (vitest.config.ts): removes the running file's temp
// dirs after it (see test/support/tmp.ts for why this is a setup file and not a module hook).
import { armTempDirRemoval } from './tmp.js';

armTempDirRemoval();
