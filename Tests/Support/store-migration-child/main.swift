// A child process that the migration crash tests start and kill (issue 5).
print("store-migration-child: not yet implemented")
