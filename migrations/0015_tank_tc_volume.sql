-- 0015: temperature-compensated volumes (docs/forecourt.md, "Tanks and wet stock"). A gauge
-- reads each tank's volume as it stands and corrected to 15 degrees C (TC); a delivery note
-- counts litres at 15 degrees C, so a delivery read from the gauge is compared with its note
-- in those. NULL where no gauge gave one (a dip, an entered delivery, a gauge that sent none).
-- Released: never edit this file (docs/store.md, "Migrations").

ALTER TABLE tank_reading ADD COLUMN tc_volume TEXT;
ALTER TABLE tank_delivery ADD COLUMN tc_before TEXT;
ALTER TABLE tank_delivery ADD COLUMN tc_after TEXT;
