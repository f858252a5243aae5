import '@mantine/tiptap/styles.css';
import { Input } from '@mantine/core';
import { RichTextEditor } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useId } from 'react';

/**
 * The notes editor with exactly the documented toolbar: headers 1 and 2, bold, italic, underline,
 * ordered and bullet lists, clean. Everything else the starter kit offers is switched off, so the
 * editor can only produce what the server keeps (docs/product/limits.md).
 */
export function NotesEditor({
  value,
  onChange,
  label = 'Notes',
  name = 'notes',
  error,
  description,
}: {
  value: string;
  onChange: (html: string) => void;
  label?: string;
  /** A hint under the label. */
  description?: string;
  /** The field's name (`data-name`), e.g. 'valuation.basis'. */
  name?: string;
  /** A message about the text, shown under it. */
  error?: string;
}) {
  const labelId = useId();
  const errorId = useId();
  const descriptionId = useId();
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [1, 2] },
        link: false,
        code: false,
        codeBlock: false,
        blockquote: false,
        strike: false,
        horizontalRule: false,
      }),
    ],
    content: value,
    immediatelyRender: true,
    editorProps: {
      attributes: {
        'aria-labelledby': labelId,
        ...(description ? { 'aria-describedby': descriptionId } : {}),
        'aria-multiline': 'true',
        role: 'textbox',
        'data-name': name,
      },
    },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
  });

  // The parent clears the form after adding an element.
  useEffect(() => {
    if (editor && value === '' && !editor.isEmpty) editor.commands.clearContent();
  }, [editor, value]);

  // A group named like the field, so its toolbar is told apart from the other editors' on one form.
  return (
    <div role="group" aria-labelledby={labelId}>
      <Input.Label id={labelId} mb={4}>
        {label}
      </Input.Label>
      {description ? (
        <Input.Description id={descriptionId} mb={6}>
          {description}
        </Input.Description>
      ) : null}
      <RichTextEditor editor={editor}>
        <RichTextEditor.Toolbar>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.H1 />
            <RichTextEditor.H2 />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Bold />
            <RichTextEditor.Italic />
            <RichTextEditor.Underline />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.OrderedList />
            <RichTextEditor.BulletList />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.ClearFormatting />
          </RichTextEditor.ControlsGroup>
        </RichTextEditor.Toolbar>
        <RichTextEditor.Content mih={90} />
      </RichTextEditor>
      {error ? (
        <Input.Error id={errorId} mt={4}>
          {error}
        </Input.Error>
      ) : null}
    </div>
  );
}
