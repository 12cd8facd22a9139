import { ActionIcon, Box, Code, CopyButton, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/** Monospace text with a copy button in its corner; `block` renders multi-line content. */
export function CopyBlock({ value, label, block }: { value: string; label: string; block?: boolean }) {
  return (
    <Box pos="relative">
      {/* Multi-line content (a configuration) keeps each line whole and scrolls sideways on a narrow
          screen, so no line is broken mid-word; a single value (a key) wraps anywhere. */}
      <Code
        block={block}
        pr={40}
        style={
          block
            ? { whiteSpace: 'pre', overflowX: 'auto', display: 'block' }
            : { wordBreak: 'break-all', display: 'block' }
        }
        p="xs"
        {...(block ? { tabIndex: 0, role: 'region', 'aria-label': label } : {})}
      >
        {value}
      </Code>
      <CopyButton value={value} timeout={2000}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : `Copy ${label}`} withArrow position="left">
            <ActionIcon
              variant="subtle"
              color={copied ? 'teal' : 'gray'}
              onClick={copy}
              aria-label={copied ? 'Copied' : `Copy ${label}`}
              pos="absolute"
              top={6}
              right={6}
            >
              {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Box>
  );
}
