// lobby: filled by issue 25.
