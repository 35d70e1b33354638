import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Tier } from '../../platform/security/tokens.ts';

export interface UsersTable {
  id: Generated<string>;
  email: string;
  password_hash: string;
  name: string;
  household_size: Generated<number>;
  dietary_restrictions: Generated<string[]>;
  allergies: Generated<string[]>;
  health_goals: Generated<string[]>;
  cooking_skill: Generated<string>;
  tier: Generated<Tier>;
  is_admin: Generated<boolean>;
  onboarded_at: Date | null;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface RefreshTokensTable {
  id: string;
  user_id: string;
  family_id: string;
  token_hash: string;
  expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
  created_at: ColumnType<Date, never, never>;
}

export interface AccountsTables {
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
}

export type UserRow = Selectable<UsersTable>;
