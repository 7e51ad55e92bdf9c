// Which migrations OpenCode records in its `migration` table: the probe recognises a file by them,
// and the demo generator writes the 1.x ones as OpenCode 1.18.33 does.

/** The 38 migrations OpenCode 1.18.33 applies (opencode-1.18.33-sample-rows.sql). */
export const V1_MIGRATIONS = [
  '20260127222353_familiar_lady_ursula', '20260211171708_add_project_commands', '20260213144116_wakeful_the_professor',
  '20260225215848_workspace', '20260227213759_add_session_workspace_id', '20260228203230_blue_harpoon',
  '20260303231226_add_workspace_fields', '20260309230000_move_org_to_state', '20260312043431_session_message_cursor',
  '20260323234822_events', '20260410174513_workspace-name', '20260413175956_chief_energizer',
  '20260423070820_add_icon_url_override', '20260427172553_slow_nightmare', '20260428004200_add_session_path',
  '20260501142318_next_venus', '20260504145000_add_sync_owner', '20260507164347_add_workspace_time',
  '20260510033149_session_usage', '20260511000411_data_migration_state', '20260511173437_session-metadata',
  '20260601010001_normalize_storage_paths', '20260601202201_amazing_prowler', '20260602002951_lowly_union_jack',
  '20260602182828_add_project_directories', '20260603001617_session_message_projection_indexes',
  '20260603040000_session_message_projection_order', '20260603141458_session_input_inbox',
  '20260603160727_jittery_ezekiel_stane', '20260604172448_event_sourced_session_input',
  '20260605003541_add_session_context_snapshot', '20260605042240_add_context_epoch_agent', '20260611035744_credential',
  '20260611192811_lush_chimera', '20260612174303_project_dir_strategy', '20260622142730_simplify_session_context_epoch',
  '20260622170816_reset_v2_session_state', '20260622202450_simplify_session_input',
] as const

/** 2.x migrations after the 1.x prefix (opencode-storage.md §9.6), aliases and pre-launch ids. */
export const V2_MIGRATIONS = [
  '20260804233008_loose_psylocke', '20260730195856_optional_session_title', '20260805200742_import_legacy_credentials',
  '20260808023530_workspace_domain', '20260811161259_execution_claim_attempts', '20260812181746_session_inbox',
  '20260812213948_worktree', '20260819222447_session_viewed_state', '20260823191254_nullable_workspace_binding',
  '20260910120000_clear_v1_session_permission', '20260923013825_project_time_active',
  '20261006120000_key_credential_configuration',
  '20260703090000_reset_v2_event_rename_sweep', '20260703200000_reset_v2_session_events',
  '20260707120000_migrate_prelaunch_v2_state', '20260710025429_instruction_sync',
] as const
