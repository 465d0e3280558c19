"""Names vulture cannot see used: framework entry points (Django, Celery, django-axes, django-redis, pydantic,
html.parser) and attributes only the templates read. Checked by `make lint`: vulture moderator nights votes cards
tables bench vulture_whitelist.py --min-confidence 60 --exclude "*/migrations/*,*/settings.py" (migrations and
settings modules are read by Django by name, every line of them)."""

# ruff: noqa: B018, F821

_sessions_aged  # Celery signal handler: connected by its decorator
_sessions_checked  # Celery signal handler: connected by its decorator
close_phase  # Celery/django-q task: named in the beat schedule and Q_CLUSTER, queued by name
sweep_phases  # Celery/django-q task: named in the beat schedule and Q_CLUSTER, queued by name
sweep_q  # Celery/django-q task: named in the beat schedule and Q_CLUSTER, queued by name
_._mutable  # Django QueryDict flag: set to make the copied POST read-only again
app_name  # Django URLconf: read by ROOT_URLCONF / include()
urlpatterns  # Django URLconf: read by ROOT_URLCONF / include()
_.get_readonly_fields  # Django admin: registered with @admin.register, its options read by the admin site
_.has_add_permission  # Django admin: registered with @admin.register, its options read by the admin site
_.has_change_permission  # Django admin: registered with @admin.register, its options read by the admin site
_.has_delete_permission  # Django admin: registered with @admin.register, its options read by the admin site
AnnouncementAdmin  # Django admin: registered with @admin.register, its options read by the admin site
AuditLogAdmin  # Django admin: registered with @admin.register, its options read by the admin site
filter_horizontal  # Django admin: registered with @admin.register, its options read by the admin site
GameAdmin  # Django admin: registered with @admin.register, its options read by the admin site
inlines  # Django admin: registered with @admin.register, its options read by the admin site
InputAdmin  # Django admin: registered with @admin.register, its options read by the admin site
list_display  # Django admin: registered with @admin.register, its options read by the admin site
list_filter  # Django admin: registered with @admin.register, its options read by the admin site
MessageAdmin  # Django admin: registered with @admin.register, its options read by the admin site
PhaseAdmin  # Django admin: registered with @admin.register, its options read by the admin site
readonly_fields  # Django admin: registered with @admin.register, its options read by the admin site
search_fields  # Django admin: registered with @admin.register, its options read by the admin site
SeatAdmin  # Django admin: registered with @admin.register, its options read by the admin site
SeatHolderAdmin  # Django admin: registered with @admin.register, its options read by the admin site
TableActionAdmin  # Django admin: registered with @admin.register, its options read by the admin site
TableAdmin  # Django admin: registered with @admin.register, its options read by the admin site
_.ready  # Django app config: found by INSTALLED_APPS, its hooks called at start-up
default_auto_field  # Django app config: found by INSTALLED_APPS, its hooks called at start-up
ModeratorConfig  # Django app config: found by INSTALLED_APPS, its hooks called at start-up
TablesConfig  # Django app config: found by INSTALLED_APPS, its hooks called at start-up
verbose_name  # Django app config: found by INSTALLED_APPS, its hooks called at start-up
hidden_settings  # Django exception reporter filter: named by DEFAULT_EXCEPTION_REPORTER_FILTER
SecretSettingsFilter  # Django exception reporter filter: named by DEFAULT_EXCEPTION_REPORTER_FILTER
confirm_past  # Django form field: declared on the form, read through cleaned_data
noir_killer  # Django form field: declared on the form, read through cleaned_data
rotate_lord  # Django form field: declared on the form, read through cleaned_data
sgs_countdown  # Django form field: declared on the form, read through cleaned_data
sgs_generals  # Django form field: declared on the form, read through cleaned_data
sgs_protected  # Django form field: declared on the form, read through cleaned_data
sgs_rebirth  # Django form field: declared on the form, read through cleaned_data
sgs_rule2  # Django form field: declared on the form, read through cleaned_data
sgs_seat_lot  # Django form field: declared on the form, read through cleaned_data
warrant  # Django form field: declared on the form, read through cleaned_data
_.clean_camps  # Django form hook: clean_<field> called by Form.full_clean
_.clean_deck  # Django form hook: clean_<field> called by Form.full_clean
_.clean_hands  # Django form hook: clean_<field> called by Form.full_clean
_.clean_players  # Django form hook: clean_<field> called by Form.full_clean
_.clean_roles  # Django form hook: clean_<field> called by Form.full_clean
_.clean_seed  # Django form hook: clean_<field> called by Form.full_clean
_.clean_team_of  # Django form hook: clean_<field> called by Form.full_clean
_.add_arguments  # Django management command: run by manage.py
_.handle  # Django management command: run by manage.py
Command  # Django management command: run by manage.py
_.process_exception  # Django middleware: named in MIDDLEWARE, its hooks called by the handler
_.process_view  # Django middleware: named in MIDDLEWARE, its hooks called by the handler
BodyLimitMiddleware  # Django middleware: named in MIDDLEWARE, its hooks called by the handler
HealthMiddleware  # Django middleware: named in MIDDLEWARE, its hooks called by the handler
OnceMiddleware  # Django middleware: named in MIDDLEWARE, its hooks called by the handler
OutOfRangeMiddleware  # Django middleware: named in MIDDLEWARE, its hooks called by the handler
RateLimitMiddleware  # Django middleware: named in MIDDLEWARE, its hooks called by the handler
SerialSignInMiddleware  # Django middleware: named in MIDDLEWARE, its hooks called by the handler
close_error  # Django model field: a column, read by templates and the admin
entered_at  # Django model field: a column, read by templates and the admin
input  # Django model field: a column, read by templates and the admin
summary  # Django model field: a column, read by templates and the admin
undone  # Django model field: a column, read by templates and the admin
constraints  # Django model/app option: read by the model metaclass
indexes  # Django model/app option: read by the model metaclass
Meta  # Django model/app option: read by the model metaclass
ordering  # Django model/app option: read by the model metaclass
verbose_name_plural  # Django model/app option: read by the model metaclass
_.get_object  # Django syndication Feed hook: called by the feed framework
_.item_description  # Django syndication Feed hook: called by the feed framework
_.item_link  # Django syndication Feed hook: called by the feed framework
_.item_pubdate  # Django syndication Feed hook: called by the feed framework
_.item_title  # Django syndication Feed hook: called by the feed framework
_.item_updateddate  # Django syndication Feed hook: called by the feed framework
_.subtitle  # Django syndication Feed hook: called by the feed framework
feed_type  # Django syndication Feed hook: called by the feed framework
_close_preview  # Django template tag or filter: registered with register, used by the templates
_to_you  # Django template tag or filter: registered with register, used by the templates
entry_of  # Django template tag or filter: registered with register, used by the templates
items_text  # Django template tag or filter: registered with register, used by the templates
selfentry_panel  # Django template tag or filter: registered with register, used by the templates
table_once  # Django template tag or filter: registered with register, used by the templates
application  # WSGI entry point: named by WSGI_APPLICATION and the Procfile
lockout_response  # django-axes lockout callable: named by AXES_LOCKOUT_CALLABLE, called with this signature
original_response  # django-axes lockout callable: named by AXES_LOCKOUT_CALLABLE, called with this signature
_._class  # django-redis client class: named in CACHES, its hooks called by django-redis
_.get_client  # django-redis client class: named in CACHES, its hooks called by django-redis
_.handle_data  # html.parser.HTMLParser callback: called by feed()
_.handle_endtag  # html.parser.HTMLParser callback: called by feed()
_.handle_starttag  # html.parser.HTMLParser callback: called by feed()
_._blank_is_none  # pydantic model field, config or validator: read by pydantic
_._consistent  # pydantic model field, config or validator: read by pydantic
_._each_game_once  # pydantic model field, config or validator: read by pydantic
_._ends_after_start  # pydantic model field, config or validator: read by pydantic
_._fields_of_its_kind  # pydantic model field, config or validator: read by pydantic
_._no_text_of_a_pm  # pydantic model field, config or validator: read by pydantic
_._payload_of_its_kind  # pydantic model field, config or validator: read by pydantic
for_  # pydantic model field, config or validator: read by pydantic
model_config  # pydantic model field, config or validator: read by pydantic
pass_  # pydantic model field, config or validator: read by pydantic
written_at  # pydantic model field, config or validator: read by pydantic
_.before_text  # read by a Django template (templates/), where vulture does not look
_.change_offered  # read by a Django template (templates/), where vulture does not look
_.close_error  # Django model field: set on the row before it is saved, read by the templates
_.ends_after  # read by a Django template (templates/), where vulture does not look
_.ends_before  # read by a Django template (templates/), where vulture does not look
_.evidence  # read by a Django template (templates/), where vulture does not look
_.manifesto_note  # read by a Django template (templates/), where vulture does not look
_.summary  # Django model field: set on the row before it is saved, read by the templates
_.trace_gone  # read by a Django template (templates/), where vulture does not look
_.trace_new  # read by a Django template (templates/), where vulture does not look
_.undone  # Django model field: set on the row before it is saved, read by the templates
before_text  # read by a Django template (templates/), where vulture does not look
ends_after  # read by a Django template (templates/), where vulture does not look
ends_before  # read by a Django template (templates/), where vulture does not look
height  # read by a Django template (templates/), where vulture does not look
label_x  # read by a Django template (templates/), where vulture does not look
plot  # read by a Django template (templates/), where vulture does not look
text_preview  # read by a Django template (templates/), where vulture does not look
ticks_x  # read by a Django template (templates/), where vulture does not look
ticks_y  # read by a Django template (templates/), where vulture does not look
trace_gone  # read by a Django template (templates/), where vulture does not look
trace_new  # read by a Django template (templates/), where vulture does not look
width  # read by a Django template (templates/), where vulture does not look
_.examples  # a cue's examples (moderator/parser/cues.yaml): data the cue tests read (tests/parser/test_scoped_cues.py)
_.counter  # a cue's counter-examples (cues.yaml): data the cue tests read (tests/parser/test_scoped_cues.py)
