// follow: filled by issue 25.
