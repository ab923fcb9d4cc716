// Every mutation operator of the self-test, HTTP first, then STOMP.
import type { MutationOperator } from '../operator.js';
import { authOperators } from './authOperators.js';
import { bodyOperators } from './bodyOperators.js';
import { clientFrameOperators } from './clientFrameOperators.js';
import { connectionOperators } from './connectionOperators.js';
import { deliveryOperators } from './deliveryOperators.js';
import { envelopeOperators } from './envelopeOperators.js';
import { errorCodeOperators } from './errorCodeOperators.js';
import { headerOperators } from './headerOperators.js';
import { messageOperators } from './messageOperators.js';
import { methodOperators } from './methodOperators.js';
import { pagingOperators } from './pagingOperators.js';
import { statusOperators } from './statusOperators.js';
import { validationErrorOperators } from './validationErrorOperators.js';

export const allOperators: readonly MutationOperator[] = [
  ...statusOperators,
  ...bodyOperators,
  ...envelopeOperators,
  ...errorCodeOperators,
  ...validationErrorOperators,
  ...headerOperators,
  ...pagingOperators,
  ...methodOperators,
  ...authOperators,
  ...messageOperators,
  ...deliveryOperators,
  ...connectionOperators,
  ...clientFrameOperators,
];
