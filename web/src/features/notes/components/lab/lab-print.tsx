import { useState } from 'react';
import { LAB_MESSAGES } from '../../../../../../shared/labs/lab-schema.js';
import { Button } from '../../../../components/ui/button.js';
import { fetchLabPdf } from '../../api/labs-api.js';

/** The lab report PDF on the practice's letterhead, downloaded. */
export function LabPrint({ noteId }: { noteId: string }) {
  const [printing, setPrinting] = useState(false);
  const [printError, setPrintError] = useState<string | null>(null);
  const print = async () => {
    setPrintError(null);
    setPrinting(true);
    try {
      const { fileName, blob } = await fetchLabPdf(noteId);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = fileName;
      link.click();
      window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch {
      setPrintError(LAB_MESSAGES.pdfError);
    } finally {
      setPrinting(false);
    }
  };

  return (
    <div className="tw-lab__actions">
      <Button size="sm" onPress={() => void print()} isPending={printing}>
        Print
      </Button>
      {printError ? (
        <p className="tw-lab__error" role="alert">
          {printError}
        </p>
      ) : null}
    </div>
  );
}
