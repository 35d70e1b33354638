import type { ColumnType, Generated } from 'kysely';

export interface PushTokensTable {
  id: Generated<string>;
  user_id: string;
  token: string;
  platform: 'ios' | 'android' | 'web';
  created_at: ColumnType<Date, Date | undefined, Date>;
}

export interface DevicesTables {
  push_tokens: PushTokensTable;
}
