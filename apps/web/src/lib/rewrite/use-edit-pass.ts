// The edit-pass box of Convert and Create. The run reads it through `editPassEnabled` when its
// text completes, not when it starts, so ticking the box mid-stream still counts.
import { useCallback, useEffect, useRef, useState } from 'react';

/** `initial`: the box as the page kept it across a checkout or reload. */
export function useEditPass(initial = false) {
  const [editPass, setEditPass] = useState(initial);
  const editPassRef = useRef(editPass);
  useEffect(() => {
    editPassRef.current = editPass;
  }, [editPass]);
  const editPassEnabled = useCallback(() => editPassRef.current, []);
  return { editPass, setEditPass, editPassEnabled };
}
