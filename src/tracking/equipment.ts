// Equipment type, length and height, decoded from a container's ISO 6346 size-type code.

export type EquipmentType = 'dry' | 'reefer' | 'open top' | 'flat rack' | 'bulk' | 'tank';
export type EquipmentLength = 10 | 20 | 40 | 45;
export type EquipmentHeight = 'standard' | 'high_cube';

const LENGTHS: Record<string, EquipmentLength> = { '1': 10, '2': 20, '4': 40, L: 45 };
const HEIGHTS: Record<string, EquipmentHeight> = { '0': 'standard', '2': 'standard', '5': 'high_cube', '6': 'high_cube' };
const TYPES: Record<string, EquipmentType> = {
  G: 'dry',
  V: 'dry',
  R: 'reefer',
  H: 'reefer',
  U: 'open top',
  P: 'flat rack',
  B: 'bulk',
  T: 'tank',
};

/** Equipment type, length and height of an ISO 6346 size-type code (`45G1` → dry, 40, high_cube); null where unknown. */
export function equipmentOf(isoSizeType: string | null): {
  equipment_type: EquipmentType | null;
  equipment_length: EquipmentLength | null;
  equipment_height: EquipmentHeight | null;
} {
  const code = isoSizeType?.trim().toUpperCase() ?? '';
  if (!/^[0-9A-Z]{4}$/.test(code)) return { equipment_type: null, equipment_length: null, equipment_height: null };
  return {
    equipment_length: LENGTHS[code[0]!] ?? null,
    equipment_height: HEIGHTS[code[1]!] ?? null,
    equipment_type: TYPES[code[2]!] ?? null,
  };
}
