// The reference back-end. See issue 3.
