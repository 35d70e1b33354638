export type PreferenceKind = 'cuisine' | 'difficulty' | 'ingredient';

export interface PreferenceWeightsTable {
  user_id: string;
  kind: PreferenceKind;
  key: string;
  weight: number;
  updated_at: Date;
}

export interface PreferencesTables {
  preference_weights: PreferenceWeightsTable;
}
