import { describe, expect, it } from 'vitest';
import { fileReports } from '../../renderer/src/features/projects/ProjectExport';

describe('project export: the loudness report as the tables show it', () => {
  it('reads the report file’s camelCase entries and the wire’s snake_case ones alike', () => {
    const reports = fileReports([
      {
        file: 'The Lighthouse.m4b',
        durationMs: 22605,
        integratedLufs: -18.41,
        rmsDbfs: -20.02,
        peakDbfs: -3.99,
        truePeakDbtp: -3.88,
        noiseFloorDbfs: -75.36,
        passes: true,
        failures: [],
      },
      {
        file: '02 - Morning.mp3',
        duration_ms: 8000,
        rms_dbfs: null,
        passes: false,
        failures: ['RMS too low'],
      },
      { title: 'not a file report' },
      null,
    ]);
    expect(reports).toEqual([
      {
        file: 'The Lighthouse.m4b',
        duration_ms: 22605,
        integrated_lufs: -18.41,
        rms_dbfs: -20.02,
        peak_dbfs: -3.99,
        true_peak_dbtp: -3.88,
        noise_floor_dbfs: -75.36,
        passes: true,
        failures: [],
      },
      {
        file: '02 - Morning.mp3',
        duration_ms: 8000,
        integrated_lufs: null,
        rms_dbfs: null,
        peak_dbfs: null,
        true_peak_dbtp: null,
        noise_floor_dbfs: null,
        passes: false,
        failures: ['RMS too low'],
      },
    ]);
  });
});
