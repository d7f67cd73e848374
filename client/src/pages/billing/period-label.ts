import { formatDate } from '../../../../shared/domain/format';
import type { BillingPeriod } from '../../../../shared/schemas/billing';

/** A billing period as its two days, e.g. "Nov 1, 2026 – Dec 1, 2026". */
export const periodLabel = (p: Pick<BillingPeriod, 'start' | 'end'>) => `${formatDate(p.start)} – ${formatDate(p.end)}`;
